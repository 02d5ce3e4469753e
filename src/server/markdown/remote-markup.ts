import sanitizeHtml from 'sanitize-html';
import { sanitizeBlogMarkup } from './sanitize-blog-markup.js';

/**
 * Markup that came from another site (a fediverse reply): held to exactly what our own comments
 * may contain (`sanitizeBlogMarkup` with the comment rules: no headings, no images, links with
 * `rel="nofollow ugc noopener"`), relative links resolved against `base` (the remote author's
 * page). `text` is the same content as plain text, for the places that show a comment's source
 * (a report's label, the moderators' view).
 */
export function remoteCommentMarkup(html: string, base: string): { html: string; text: string } {
  const safe = sanitizeBlogMarkup(html, [], { comment: true, absoluteBase: URL.canParse(base) ? base : undefined });
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
