import { sanitizeBlogMarkup } from '../markdown/sanitize-blog-markup.js';
import { escapeHtmlText } from '../markdown/outgoing-text.js';

/**
 * HTML from another server is untrusted: it passes the allow-list our own rendered blogs pass
 * (links get `rel="nofollow ugc noopener"`), with no image prefix allowed, so no remote image is
 * loaded by our readers' browsers.
 */
export function sanitizeRemoteHtml(html: string): string {
  return sanitizeBlogMarkup(html, []);
}

/** A reply typed as plain text, as the Note's HTML: escaped, paragraphs at blank lines, line breaks kept. */
export function renderReplyHtml(text: string): string {
  return text
    .trim()
    .split(/\n\s*\n/)
    .map((paragraph) => `<p>${escapeHtmlText(paragraph.trim()).replace(/\n/g, '<br>')}</p>`)
    .join('');
}
