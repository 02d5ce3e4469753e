import { sanitizeBlogMarkup } from './sanitize-blog-markup.js';
import { normaliseImagePrefixes } from './stored-image-url.js';

/**
 * THE one way a writer's text leaves the site: RSS, Atom and JSON Feed, the HTML part of every
 * e-mail that quotes someone's writing (comment replies today), and, when they exist, the
 * subscription e-mails and ActivityPub `content`/`summary` (build those from `outgoingText`
 * too, never from `blogs.html` or `blogs.excerpt` directly).
 *
 * Two kinds of thing leave, and they must never be confused:
 * - text (the excerpt): what the writer typed, shown as typed. A reader that renders it as HTML
 *   (RSS `description`, Atom `summary type="html"`) gets it HTML-escaped, so `<b>` written as
 *   text shows as `<b>`, never as bold or as a live element.
 * - HTML (the body): the same sanitised markup the page shows, run through the page's
 *   allow-list once more, with every link and image made absolute (a reader has no page to
 *   resolve `/uploads/…` against). No scripts, frames, styles, event handlers, nor `javascript:`,
 *   `vbscript:` or `data:` URLs can be in it.
 */

export interface OutgoingText {
  /** The excerpt as plain text, for places that are text by definition (JSON Feed `summary`, mail's text part). */
  text: string;
  /** The same excerpt escaped as HTML text, for places a reader renders as HTML (RSS `description`, Atom `summary`). */
  textAsHtml: string;
  /** The whole sanitised body with absolute URLs (RSS `content:encoded`, Atom `content`, JSON Feed `content_html`, mail). */
  html: string;
}

export interface OutgoingPlace {
  /** Absolute URL of the page the text is shown on: relative links resolve against it, as in the browser. */
  pageUrl: string;
  /** The site's stored-image prefixes (`storage.publicBaseUrl`), as the page was rendered with. */
  imagePrefixes: readonly string[];
  /** A comment's markup (no headings, no images), as `renderMarkdown`'s option of that name. */
  comment?: boolean;
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text as HTML text: every character a parser could read as markup or an entity is a reference. */
export function escapeHtmlText(text: string): string {
  return text.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char]!);
}

/** `rendered` is what `renderMarkdown` made of the source (stored as `blogs.html`/`excerpt`, `comments.html`). */
export function outgoingText(rendered: { html: string; excerpt: string }, place: OutgoingPlace): OutgoingText {
  const prefixes = normaliseImagePrefixes(place.imagePrefixes);
  return {
    text: rendered.excerpt,
    textAsHtml: escapeHtmlText(rendered.excerpt),
    html: sanitizeBlogMarkup(rendered.html, prefixes, { comment: place.comment, absoluteBase: place.pageUrl }),
  };
}
