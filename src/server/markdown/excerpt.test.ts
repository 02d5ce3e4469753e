import { describe, expect, it } from 'vitest';
import { EXCERPT_MAX_LENGTH, excerptOf, readingMinutes, WORDS_PER_MINUTE } from './excerpt.js';
import { renderMarkdown } from './render-markdown.js';

const render = (source: string) => renderMarkdown(source, { imagePrefixes: ['/uploads/'] });

describe('excerpt', () => {
  it('is the plain text of the Markdown, without markup or entities', () => {
    const { excerpt } = render('# Hello & welcome\n\nSome **bold** and [a link](https://example.com) <b>raw</b>.\nNext `line`.');
    expect(excerpt).toBe('Hello & welcome. Some bold and a link <b>raw</b>. Next line.');
  });

  it('keeps block boundaries: a heading ends with a full stop, list items are separated', () => {
    const source = [
      '## Why bees',
      '',
      'Keeping bees in a city garden needs little:',
      '',
      '- a hive',
      '- a few neighbours who like honey',
      '',
      'The bees do most of the work',
    ].join('\n');
    expect(render(source).excerpt).toBe(
      'Why bees. Keeping bees in a city garden needs little: a hive; a few neighbours who like honey. The bees do most of the work',
    );
  });

  it("keeps a heading's own punctuation and separates paragraphs, quotes and table cells", () => {
    expect(render('# Why not?\n\nFirst paragraph\n\n> A quote\n\nLast one.').excerpt).toBe('Why not? First paragraph. A quote. Last one.');
    expect(render('| Name | Age |\n| --- | --- |\n| Ann | 3 |\n\nAfter').excerpt).toBe('Name; Age; Ann; 3. After');
    expect(render('1. one,\n2. two\n   - nested\n3. three').excerpt).toBe('one, two; nested; three');
  });

  it('never cuts inside a word and ends with an ellipsis only when cut', () => {
    const words = ['bees', 'honeycomb', 'a', 'hive', 'neighbourhood', 'pollen', 'x'];
    for (let n = 0; n < 300; n++) {
      const text = Array.from({ length: 20 + (n % 60) }, (_, i) => words[(i * 7 + n) % words.length]).join(' ');
      const excerpt = excerptOf(text);
      if (text.length <= EXCERPT_MAX_LENGTH) {
        expect(excerpt).toBe(text);
        continue;
      }
      expect(excerpt.endsWith('…')).toBe(true);
      expect(excerpt.length).toBeLessThanOrEqual(EXCERPT_MAX_LENGTH);
      const kept = excerpt.slice(0, -1);
      // The kept text is followed in the original by a space (or a punctuation mark and a space): its last word is whole.
      expect(text.startsWith(kept)).toBe(true);
      expect(text.slice(kept.length)).toMatch(/^[,.;:!?–—-]*\s/);
    }
    expect(render('Short. No ellipsis').excerpt).toBe('Short. No ellipsis');
  });

  it('leaves out code blocks, unless the post is nothing but code', () => {
    expect(render('Intro.\n\n```js\nconst x = 1;\n```\n\nOutro.').excerpt).toBe('Intro. Outro.');
    expect(render('```js\nconst x = 1;\n```').excerpt).toBe('const x = 1;');
  });

  it("leaves out images' descriptions, which the page still shows and search still finds (issue 58)", () => {
    const source = 'The gate stays open. ![chart](/uploads/blogs/chart.webp) It is never locked.\n\n![a harbour wall](/uploads/blogs/wall.webp)\n\n## Tides ![icon](https://example.com/i.png)';
    const rendered = render(source);
    expect(rendered.excerpt).toBe('The gate stays open. It is never locked. Tides.');
    expect(rendered.html).toContain('alt="chart"');
    expect(rendered.text).toContain('a harbour wall');
    // A post of nothing but images (and code) gets no description as its excerpt either.
    expect(render('![chart](/uploads/blogs/chart.webp)').excerpt).toBe('');
    expect(render('![chart](/uploads/blogs/chart.webp)\n\n```\nnpm start\n```').excerpt).toBe('npm start');
  });

  it('keeps a short text whole', () => {
    expect(excerptOf('Short and sweet.')).toBe('Short and sweet.');
    const exact = 'a'.repeat(EXCERPT_MAX_LENGTH);
    expect(excerptOf(exact)).toBe(exact);
  });

  it('cuts a long text at a word boundary within ~200 characters, with an ellipsis', () => {
    const words = Array.from({ length: 100 }, (_, i) => `word${i}`).join(' ');
    const excerpt = render(words).excerpt;
    expect(excerpt.length).toBeLessThanOrEqual(EXCERPT_MAX_LENGTH);
    expect(excerpt.length).toBeGreaterThan(EXCERPT_MAX_LENGTH - 10);
    expect(excerpt.endsWith('…')).toBe(true);
    const kept = excerpt.slice(0, -1).split(' ');
    // Every kept word is whole: the text goes on with a space right after the last one.
    expect(words.startsWith(`${kept.join(' ')} `)).toBe(true);
  });

  it('drops punctuation left dangling at the cut', () => {
    const text = `${'x'.repeat(195)}, more words`;
    expect(excerptOf(text)).toBe(`${'x'.repeat(195)}…`);
  });

  it('cuts inside a single word longer than the limit', () => {
    const excerpt = excerptOf('y'.repeat(500));
    expect(excerpt).toBe(`${'y'.repeat(EXCERPT_MAX_LENGTH - 1)}…`);
  });
});

describe('readingMinutes', () => {
  it('is words divided by the reading speed, rounded up, at least 1', () => {
    expect(readingMinutes('')).toBe(1);
    expect(readingMinutes('one two three')).toBe(1);
    expect(readingMinutes('w '.repeat(WORDS_PER_MINUTE))).toBe(1);
    expect(readingMinutes('w '.repeat(WORDS_PER_MINUTE + 1))).toBe(2);
    expect(readingMinutes('w '.repeat(WORDS_PER_MINUTE * 10))).toBe(10);
  });

  it('counts the words of a rendered post, code included, not its markup', () => {
    const prose = Array.from({ length: WORDS_PER_MINUTE * 2 }, () => '**word**').join(' ');
    expect(render(prose).readingMinutes).toBe(2);
    const code = `\`\`\`\n${'token '.repeat(WORDS_PER_MINUTE + 5)}\n\`\`\``;
    expect(render(`Intro.\n\n${code}`).readingMinutes).toBe(2);
  });
});
