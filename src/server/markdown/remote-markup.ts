import sanitizeHtml from 'sanitize-html';
import { sanitizeBlogMarkup } from './sanitize-blog-markup.js';

/**
 * Markup that came from another site is untrusted: it passes the allow-list our own rendered blogs
 * pass (links get `rel="nofollow ugc noopener"`), with no image prefix allowed, so no remote image
 * is loaded by our readers' browsers, and its relative links are resolved against `base` (the
 * page it came from), never against ours. `comment`: held to what our own comments may contain
 * (no headings, no images).
 */
export function remoteMarkup(html: string, base: string, options: { comment?: boolean } = {}): string {
  return sanitizeBlogMarkup(html, [], { comment: options.comment, absoluteBase: URL.canParse(base) ? base : undefined });
}

/**
 * A fediverse reply as one of our comments (`remoteMarkup` with the comment rules), relative
 * links resolved against `base` (the remote author's page). `text` is the same content as plain
 * text, for the places that show a comment's source (a report's label, the moderators' view).
 */
export function remoteCommentMarkup(html: string, base: string): { html: string; text: string } {
  const safe = remoteMarkup(html, base, { comment: true });
  return { html: safe, text: plainTextOf(safe) };
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", '#x27': "'", nbsp: ' ' };

function plainTextOf(html: string): string {
  // Paragraphs and line breaks become new lines before the tags go.
  const spaced = html.replace(/<br\s*\/?>/gi, '\n').replace(/<\/(p|li|blockquote|pre)>/gi, '\n\n');
  const text = sanitizeHtml(spaced, { allowedTags: [], allowedAttributes: {} });
  return text
    .replace(/&(amp|lt|gt|quot|#39|#x27|nbsp);/g, (_, name: string) => ENTITIES[name] ?? '')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
