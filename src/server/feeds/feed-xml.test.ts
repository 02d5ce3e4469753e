import { describe, expect, it } from 'vitest';
import { element, escapeXml, xmlDocument } from './feed-xml.js';
import { childNamed, parseXml } from '../testing/parse-xml.js';

const HOSTILE = `Tom & Jerry's <b>"best"</b> ]]> day ]]> <![CDATA[ &amp; — 日本語 — مرحبا — 🎉👩‍💻\r\nnext\tline`;

describe('XML escaping', () => {
  it('escapes the five markup characters and CR', () => {
    expect(escapeXml(`a&b<c>d"e'f\rg`)).toBe('a&amp;b&lt;c&gt;d&quot;e&apos;f&#xD;g');
  });

  it('keeps non-Latin text and emoji as they are', () => {
    expect(escapeXml('日本語 مرحبا 🎉👩‍💻')).toBe('日本語 مرحبا 🎉👩‍💻');
  });

  it('drops characters XML 1.0 cannot carry (control characters, lone surrogates)', () => {
    expect(escapeXml('a\u0000b\u0007c\u001Bd\uFFFEe\uD800f\tg\nh')).toBe('abcdef\tg\nh');
  });

  it('round-trips hostile text and attribute values through a strict parser', () => {
    const xml = xmlDocument(element('root', [element('text', HOSTILE), element('empty', [], { value: HOSTILE })]));
    const root = parseXml(xml);
    expect(childNamed(root, 'text').text).toBe(HOSTILE);
    expect(childNamed(root, 'empty').attributes.value).toBe(HOSTILE);
  });

  it('uses a parser that rejects what naive escaping would produce', () => {
    expect(() => parseXml('<a>Tom & Jerry</a>')).toThrow();
    expect(() => parseXml('<a>one ]]> two</a>')).toThrow();
    expect(() => parseXml('<a>bell \u0007</a>')).toThrow();
    expect(() => parseXml('<a>&nbsp;</a>')).toThrow();
  });
});
