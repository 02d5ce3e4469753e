import { describe, expect, it } from 'vitest';
import { snippetParts } from './snippet-parts.js';

const S = '\u0001';
const E = '\u0002';

describe('snippetParts', () => {
  it('splits at the sentinels into text and matches', () => {
    expect(snippetParts(`the ${S}roses${E} need ${S}sun${E}`)).toEqual([
      { text: 'the ', match: false },
      { text: 'roses', match: true },
      { text: ' need ', match: false },
      { text: 'sun', match: true },
    ]);
  });

  it('keeps markup characters as text: nothing is parsed but the sentinels', () => {
    const parts = snippetParts(`<script>alert(1)</script> &amp; <b>${S}zebra${E}</b> "quoted" 'single'`);
    expect(parts).toEqual([
      { text: '<script>alert(1)</script> &amp; <b>', match: false },
      { text: 'zebra', match: true },
      { text: `</b> "quoted" 'single'`, match: false },
    ]);
  });

  it('turns the stand-ins of < and & back into the characters', () => {
    expect(snippetParts(`\u0003div\u0004 ${S}x${E}`)).toEqual([
      { text: '<div& ', match: false },
      { text: 'x', match: true },
    ]);
  });

  it('survives unbalanced or doubled sentinels, drops empty parts and joins neighbours', () => {
    expect(snippetParts(`${E}a ${S}${S}b${E}${E} c ${S}`)).toEqual([
      { text: 'a ', match: false },
      { text: 'b', match: true },
      { text: ' c', match: false },
    ]);
    expect(snippetParts(`${S}one${E}${S}two${E}`)).toEqual([{ text: 'onetwo', match: true }]);
    expect(snippetParts('')).toEqual([]);
    expect(snippetParts(`${S}${E}`)).toEqual([]);
  });

  it('collapses blanks and trims the ends', () => {
    expect(snippetParts(`  a\n\n ${S}b${E}\t c  `)).toEqual([
      { text: 'a ', match: false },
      { text: 'b', match: true },
      { text: ' c', match: false },
    ]);
  });

  it('cuts the snippet at its maximum length', () => {
    const parts = snippetParts(`${'x'.repeat(1000)} ${S}word${E}`, 50);
    expect(parts).toEqual([{ text: `${'x'.repeat(50)}…`, match: false }]);
    const joined = snippetParts(`${'word '.repeat(500)}`, 400).map((part) => part.text).join('');
    expect(joined.length).toBeLessThanOrEqual(401);
  });
});
