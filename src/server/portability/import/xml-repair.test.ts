import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { XmlRepair } from './xml-repair.js';

const PUBLIC = path.resolve(import.meta.dirname, '../../../../tests/fixtures/public');

/** The text repaired in chunks of `size` characters (every split a stream could make), and the report's lines. */
function repairInChunks(text: string, size: number) {
  const repair = new XmlRepair();
  let out = '';
  for (let at = 0; at < text.length; at += size) out += repair.write(text.slice(at, at + size));
  out += repair.end();
  return { out, repairs: repair.repairs() };
}

describe('XmlRepair (the lenient reading of WordPress exports that are not well-formed)', () => {
  it('leaves a well-formed file exactly as it is (WordPress theme unit test data, 11,000 lines)', () => {
    const xml = readFileSync(path.join(PUBLIC, 'themeunittestdata.wordpress.xml'), 'utf8');
    expect(repairInChunks(xml, 65_536)).toEqual({ out: xml, repairs: [] });
  });

  it('escapes a bare "&", outside CDATA only, and names the line', () => {
    const xml = '<rss>\n<link>https://x.example/?a=1&b=2&amp;c=3</link>\n<content:encoded><![CDATA[Tom & Jerry &nbsp;]]></content:encoded>\n</rss>';
    expect(repairInChunks(xml, 1 << 20)).toEqual({
      out: '<rss>\n<link>https://x.example/?a=1&amp;b=2&amp;c=3</link>\n<content:encoded><![CDATA[Tom & Jerry &nbsp;]]></content:encoded>\n</rss>',
      repairs: ['line 2: a bare "&" escaped'],
    });
  });

  it('gives an undefined entity its HTML character, or keeps it as text; removes forbidden characters and references', () => {
    const xml = '<a>\n<t>x&nbsp;y &hellip; &LT;</t>\n<t>&bogus; &#1; &#x1F600;</t>\n<t>tab\there, vertical\u000Btab, form\u000Cfeed</t>\n<![CDATA[bell\u0007]]>\n</a>';
    const { out, repairs } = repairInChunks(xml, 1 << 20);
    expect(out).toBe('<a>\n<t>x\u00A0y \u2026 &lt;</t>\n<t>&amp;bogus;  &#x1F600;</t>\n<t>tab\there, verticaltab, formfeed</t>\n<![CDATA[bell]]>\n</a>');
    expect(repairs).toEqual([
      'line 2: the HTML entity &nbsp; replaced by its character; the HTML entity &hellip; replaced by its character; the HTML entity &LT; replaced by its character',
      'line 3: the undefined entity &bogus; kept as text; a reference to a character XML forbids (&#1;) removed',
      'line 4: a control character XML forbids (U+000B) removed; a control character XML forbids (U+000C) removed',
      'line 5: a control character XML forbids (U+0007) removed',
    ]);
  });

  it('repairs the same whatever the chunks (a reference, a CDATA marker or its end split between two)', () => {
    const xml = '<r>\n<a>1 & 2 &amp; 3 &nbsp; &#38;</a><![CDATA[ & ]]><!-- & --><?pi & ?>\n<b>&x</b>\u0001</r>';
    const whole = repairInChunks(xml, 1 << 20);
    for (const size of [1, 2, 3, 5, 8]) expect(repairInChunks(xml, size)).toEqual(whole);
    expect(whole.out).toBe('<r>\n<a>1 &amp; 2 &amp; 3 \u00A0 &#38;</a><![CDATA[ & ]]><!-- & --><?pi & ?>\n<b>&amp;x</b></r>');
  });

  it('lists the first thousand lines repaired and counts the rest, lines not repairs', () => {
    const xml = `<r>${'<a>&</a><b>&</b>\n'.repeat(1005)}</r>`;
    const { repairs } = repairInChunks(xml, 4096);
    expect(repairs).toHaveLength(1001);
    expect(repairs[999]).toBe('line 1000: a bare "&" escaped (2 times)');
    expect(repairs[1000]).toBe('… and 5 more lines repaired the same ways');
  });

  it('names ten kinds of repair on a line and counts the others together (a line of a million different entities stays one short entry)', () => {
    const entities = Array.from({ length: 5000 }, (_, i) => `&e${i};`).join(' ');
    const { repairs } = repairInChunks(`<r>${entities}</r>`, 4096);
    expect(repairs).toHaveLength(1);
    expect(repairs[0]).toMatch(/^line 1: the undefined entity &e0; kept as text; (?:the undefined entity &e\d; kept as text; ){9}other repairs \(4990 times\)$/);
  });
});
