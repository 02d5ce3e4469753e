import { describe, expect, it } from 'vitest';
import { csvCell, parseCsv, toCsv } from './csv.js';

describe('the subscribers’ CSV (RFC 4180)', () => {
  it('reads quoted fields with commas, doubled quotes and line breaks, CRLF or LF, and a BOM', () => {
    const text = '\uFEFF"Email Address","First Name"\r\n"a@example.com","Ann, ""the"" first"\r\nb@example.com,"Two\nlines"\n\nc@example.com,\n';
    expect(parseCsv(text)).toEqual([
      { line: 1, cells: ['Email Address', 'First Name'] },
      { line: 2, cells: ['a@example.com', 'Ann, "the" first'] },
      { line: 3, cells: ['b@example.com', 'Two\nlines'] },
      { line: 6, cells: ['c@example.com', ''] },
    ]);
  });

  it('reads a last row without a line end, and empty quoted cells', () => {
    expect(parseCsv('email,name\nx@example.com,""')).toEqual([
      { line: 1, cells: ['email', 'name'] },
      { line: 2, cells: ['x@example.com', ''] },
    ]);
    expect(parseCsv('')).toEqual([]);
  });

  it('writes what it reads back, and defuses formulas', () => {
    expect(csvCell('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(csvCell('+1')).toBe("'+1");
    expect(csvCell('-2')).toBe("'-2");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('plain@example.com')).toBe('plain@example.com');
    const rows = [['email', 'note'], ['a@example.com', 'a, "b"\nc']];
    expect(parseCsv(toCsv(rows)).map((row) => row.cells)).toEqual(rows);
  });
});
