import { escapeHtmlText } from '../markdown/outgoing-text.js';

/** A reply typed as plain text, as the Note's HTML: escaped, paragraphs at blank lines, line breaks kept. */
export function renderReplyHtml(text: string): string {
  return text
    .trim()
    .split(/\n\s*\n/)
    .map((paragraph) => `<p>${escapeHtmlText(paragraph.trim()).replace(/\n/g, '<br>')}</p>`)
    .join('');
}
