/** The toolbar's formats, each a change of the Content's text around the selection. */
export type MarkdownFormat = 'bold' | 'italic' | 'heading' | 'link' | 'quote' | 'code' | 'bulletList';

/** Replace `[start, end)` with `text`, then select `[selectionStart, selectionEnd)` of the new value. */
export interface TextEdit {
  start: number;
  end: number;
  text: string;
  selectionStart: number;
  selectionEnd: number;
}

const PLACEHOLDERS = { bold: 'bold text', italic: 'italic text', heading: 'Heading', link: 'link text', quote: 'Quote', code: 'code', bulletList: 'List item' };

/**
 * What a toolbar button (or Ctrl/Cmd+B, +I) does to the text: bold, italic and inline code wrap
 * the selection (or a placeholder, selected so typing replaces it) and unwrap it when it is already
 * wrapped; heading, quote and list mark every selected line, and unmark them when all are marked.
 */
export function formatMarkdown(value: string, start: number, end: number, format: MarkdownFormat): TextEdit {
  const selected = value.slice(start, end);
  switch (format) {
    case 'bold':
      return toggleWrap(value, start, end, '**', PLACEHOLDERS.bold);
    // `_`, not `*`: a `*` next to bold's `**` would be read as part of it.
    case 'italic':
      return toggleWrap(value, start, end, '_', PLACEHOLDERS.italic);
    case 'heading':
      return toggleLinePrefix(value, start, end, '# ', PLACEHOLDERS.heading);
    case 'quote':
      return toggleLinePrefix(value, start, end, '> ', PLACEHOLDERS.quote);
    case 'bulletList':
      return toggleLinePrefix(value, start, end, '- ', PLACEHOLDERS.bulletList);
    case 'link': {
      // The label is the selection; the address is selected, to be typed over.
      const label = selected || PLACEHOLDERS.link;
      const text = `[${label}](https://)`;
      const urlStart = start + label.length + 3;
      return { start, end, text, selectionStart: urlStart, selectionEnd: urlStart + 'https://'.length };
    }
    case 'code':
      return selected.includes('\n') ? fenceLines(value, start, end) : toggleWrap(value, start, end, '`', PLACEHOLDERS.code);
  }
}

/** Puts `text` in place of the selection (an uploaded image's Markdown), the cursor after it. */
export function insertAtCursor(start: number, end: number, text: string): TextEdit {
  return { start, end, text, selectionStart: start + text.length, selectionEnd: start + text.length };
}

/**
 * An uploaded image's Markdown: the writer's description as its alt text, on one line. Brackets
 * become parentheses and backslashes go: an unmatched bracket ends the alt text early, and
 * markdown-it drops an escaped character from it (`\[` renders as nothing). An empty description
 * makes a decorative image (`![](…)`): a screen reader passes over it; nothing says its file's name.
 */
export function imageMarkdown(description: string, url: string): string {
  const alt = description.replaceAll('[', '(').replaceAll(']', ')').replaceAll('\\', '').replace(/\s+/g, ' ').trim();
  return `![${alt}](${url})`;
}

function toggleWrap(value: string, start: number, end: number, marker: string, placeholder: string): TextEdit {
  const selected = value.slice(start, end);
  const m = marker.length;
  if (value.slice(start - m, start) === marker && value.slice(end, end + m) === marker) {
    return { start: start - m, end: end + m, text: selected, selectionStart: start - m, selectionEnd: end - m };
  }
  if (selected.length > 2 * m && selected.startsWith(marker) && selected.endsWith(marker)) {
    const inner = selected.slice(m, -m);
    return { start, end, text: inner, selectionStart: start, selectionEnd: start + inner.length };
  }
  const inner = selected || placeholder;
  return { start, end, text: `${marker}${inner}${marker}`, selectionStart: start + m, selectionEnd: start + m + inner.length };
}

/** The whole lines the selection touches. */
function lineRange(value: string, start: number, end: number): { from: number; to: number } {
  const from = value.lastIndexOf('\n', start - 1) + 1;
  // A selection ending just after a line break does not take in the next line.
  const last = end > start && value[end - 1] === '\n' ? end - 1 : end;
  const next = value.indexOf('\n', last);
  return { from, to: next === -1 ? value.length : next };
}

function toggleLinePrefix(value: string, start: number, end: number, prefix: string, placeholder: string): TextEdit {
  const { from, to } = lineRange(value, start, end);
  const block = value.slice(from, to);
  if (block.trim() === '') {
    const text = `${prefix}${placeholder}`;
    return { start: from, end: to, text, selectionStart: from + prefix.length, selectionEnd: from + text.length };
  }
  const lines = block.split('\n');
  const marked = lines.filter((line) => line.trim() !== '');
  const text = marked.every((line) => line.startsWith(prefix))
    ? lines.map((line) => (line.startsWith(prefix) ? line.slice(prefix.length) : line)).join('\n')
    : lines.map((line) => (line.trim() === '' ? line : `${prefix}${line}`)).join('\n');
  return { start: from, end: to, text, selectionStart: from, selectionEnd: from + text.length };
}

/** Several lines of code become a fenced block, on lines of its own. */
function fenceLines(value: string, start: number, end: number): TextEdit {
  const { from, to } = lineRange(value, start, end);
  const code = value.slice(from, to);
  const text = `\`\`\`\n${code}\n\`\`\``;
  return { start: from, end: to, text, selectionStart: from + 4, selectionEnd: from + 4 + code.length };
}
