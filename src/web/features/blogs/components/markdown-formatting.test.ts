import { describe, expect, it } from 'vitest';
import { formatMarkdown, insertAtCursor, type MarkdownFormat, type TextEdit } from './markdown-formatting';

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
  it('wraps the selection in bold, italic or code, and unwraps it again', () => {
    expect(apply('a [word] b', 'bold')).toBe('a **[word]** b');
    expect(apply('a **[word]** b', 'bold')).toBe('a [word] b');
    expect(apply('a [**word**] b', 'bold')).toBe('a [word] b');
    expect(apply('a [word] b', 'italic')).toBe('a _[word]_ b');
    expect(apply('a **[word]** b', 'italic')).toBe('a **_[word]_** b');
    expect(apply('a [x = 1] b', 'code')).toBe('a `[x = 1]` b');
  });

  it('inserts a selected placeholder where nothing is selected', () => {
    expect(apply('a []b', 'bold')).toBe('a **[bold text]**b');
    expect(apply('[]', 'heading')).toBe('# [Heading]');
    expect(apply('one\n[]', 'bulletList')).toBe('one\n- [List item]');
  });

  it('marks every selected line as a heading, quote or list item, and unmarks them', () => {
    expect(apply('in[tro]\nnext', 'heading')).toBe('[# intro]\nnext');
    expect(apply('o[ne\n\ntw]o\nthree', 'quote')).toBe('[> one\n\n> two]\nthree');
    expect(apply('[- one\n- two]', 'bulletList')).toBe('[one\ntwo]');
    expect(apply('[one\n]two', 'bulletList')).toBe('[- one]\ntwo');
  });

  it('makes a link of the selection with its address selected, and fences code of several lines', () => {
    expect(apply('see [the docs] now', 'link')).toBe('see [the docs]([https://]) now');
    expect(apply('a\nx[ = 1\ny] = 2\nb', 'code')).toBe('a\n```\n[x = 1\ny = 2]\n```\nb');
  });

  it('inserts an image at the cursor, in place of any selection, the cursor after it', () => {
    const value = 'before after';
    expect(show(value, insertAtCursor(7, 7, '![cat](/uploads/blogs/cat.webp)'))).toBe('before ![cat](/uploads/blogs/cat.webp)[]after');
  });
});
