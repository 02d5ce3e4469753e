/**
 * A small RFC 4180 reader and writer for the subscribers' CSV (no CSV library in package.json):
 * quoted fields with doubled quotes, commas and line breaks inside; CRLF or LF; a leading BOM.
 */

/** The rows of a CSV text, each with its first line's number (1-based); blank lines are left out. */
export function parseCsv(text: string): Array<{ line: number; cells: string[] }> {
  const rows: Array<{ line: number; cells: string[] }> = [];
  let index = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let line = 1;
  let row: string[] = [];
  let rowLine = 1;
  let cell = '';
  let quoted = false;
  let cellStarted = false;
  const endRow = () => {
    row.push(cell);
    if (row.length > 1 || row[0] !== '' || cellStarted) rows.push({ line: rowLine, cells: row });
    row = [];
    cell = '';
    cellStarted = false;
    rowLine = line;
  };
  for (; index < text.length; index++) {
    const char = text[index]!;
    if (quoted) {
      if (char === '"') {
        if (text[index + 1] === '"') {
          cell += '"';
          index++;
        } else quoted = false;
      } else {
        if (char === '\n') line++;
        cell += char;
      }
      continue;
    }
    if (char === '"' && cell === '') {
      quoted = true;
      cellStarted = true;
    } else if (char === ',') {
      row.push(cell);
      cell = '';
      cellStarted = true;
    } else if (char === '\r' && text[index + 1] === '\n') {
      continue;
    } else if (char === '\n' || char === '\r') {
      line++;
      endRow();
    } else cell += char;
  }
  if (cell !== '' || row.length > 0 || cellStarted) endRow();
  return rows;
}

/** A cell as RFC 4180 writes it; a cell a spreadsheet would read as a formula (= + - @, tab, CR) is prefixed with a quote. */
export function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** Rows as a CSV text, CRLF line ends (RFC 4180). */
export function toCsv(rows: string[][]): string {
  return rows.map((row) => row.map(csvCell).join(',')).join('\r\n') + '\r\n';
}
