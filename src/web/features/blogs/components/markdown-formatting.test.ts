import { describe, expect, it } from 'vitest';
import { formatMarkdown, imageMarkdown, insertAtCursor, type MarkdownFormat, type TextEdit } from './markdown-formatting';

/** Applies a format to `value`, whose selection is marked with `[` and `]`; returns the result marked the same way. */
function apply(marked: string, format: MarkdownFormat): string {
  const start = marked.indexOf('[');
  const end = marked.indexOf(']') - 1;
  const value = marked.replace('[', '').replace(']', '');
  return show(value, formatMarkdown(value, start, end, format));
}

function show(value: string, edit: TextEdit): string {
  const next = value.slice(0, edit.start) + edit.text + value.slice(edit.end);
  return `${next.slice(0, edit.selectionStart)}[${next.slice(edit.selectionStart, edit.selectionEnd)}]${next.slice(edit.selectionEnd)}`;
}

describe('toolbar formats', () => {
  it.each<[string, [marked: string, format: MarkdownFormat, formatted: string][]]>([
    [
      'wraps the selection in bold, italic or code, and unwraps it again',
      [
        ['a [word] b', 'bold', 'a **[word]** b'],
        ['a **[word]** b', 'bold', 'a [word] b'],
        ['a [**word**] b', 'bold', 'a [word] b'],
        ['a [word] b', 'italic', 'a _[word]_ b'],
        ['a **[word]** b', 'italic', 'a **_[word]_** b'],
        ['a [x = 1] b', 'code', 'a `[x = 1]` b'],
      ],
    ],
    [
      'inserts a selected placeholder where nothing is selected',
      [
        ['a []b', 'bold', 'a **[bold text]**b'],
        ['[]', 'heading', '# [Heading]'],
        ['one\n[]', 'bulletList', 'one\n- [List item]'],
      ],
    ],
    [
      'marks every selected line as a heading, quote or list item, and unmarks them',
      [
        ['in[tro]\nnext', 'heading', '[# intro]\nnext'],
        ['o[ne\n\ntw]o\nthree', 'quote', '[> one\n\n> two]\nthree'],
        ['[- one\n- two]', 'bulletList', '[one\ntwo]'],
        ['[one\n]two', 'bulletList', '[- one]\ntwo'],
      ],
    ],
    [
      'makes a link of the selection with its address selected, and fences code of several lines',
      [
        ['see [the docs] now', 'link', 'see [the docs]([https://]) now'],
        ['a\nx[ = 1\ny] = 2\nb', 'code', 'a\n```\n[x = 1\ny = 2]\n```\nb'],
      ],
    ],
  ])('%s', (_name, cases) => {
    for (const [marked, format, formatted] of cases) expect(apply(marked, format)).toBe(formatted);
  });

  it('inserts an image at the cursor, in place of any selection, the cursor after it', () => {
    const value = 'before after';
    expect(show(value, insertAtCursor(7, 7, '![cat](/uploads/blogs/cat.webp)'))).toBe('before ![cat](/uploads/blogs/cat.webp)[]after');
  });
});

describe('an inserted image', () => {
  it("takes the writer's description as its alt text, on one line, without what would end or bend it", () => {
    expect(imageMarkdown('  A chart of the\ntides  ', '/uploads/blogs/chart.webp')).toBe('![A chart of the tides](/uploads/blogs/chart.webp)');
    expect(imageMarkdown('[draft] a\\b]', '/u.webp')).toBe('![(draft) ab)](/u.webp)');
  });

  it('without a description is decorative: no alt text, never the file name', () => {
    expect(imageMarkdown('', '/uploads/blogs/chart-1.webp')).toBe('![](/uploads/blogs/chart-1.webp)');
  });
});
