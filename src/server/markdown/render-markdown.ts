import { tasklist } from '@mdit/plugin-tasklist';
import MarkdownIt from 'markdown-it';
import type Token from 'markdown-it/lib/token.mjs';
import { excerptOf, excerptText, plainText, readingMinutes } from './excerpt.js';
import { useGfmStrikethrough } from './gfm-strikethrough.js';
import { highlighterFor } from './highlight-languages.js';
import { sanitizeBlogMarkup } from './sanitize-blog-markup.js';
import { isStoredImageUrl, normaliseImagePrefixes } from './stored-image-url.js';

/**
 * Blogs are written in Markdown (CommonMark with GFM tables, strikethrough, task lists and
 * autolinks) and turned into HTML here, once per write. The parser is configured so it cannot
 * emit anything unsafe (no raw HTML, only http(s)/mailto/relative links), and its output is
 * sanitised against an allow-list anyway, so a parser or plugin bug alone puts nothing on a page.
 */

export interface MarkdownOptions {
  /**
   * URL prefixes of images stored by this site (`/uploads/`, the S3 public URL). Images
   * elsewhere become links: no tracking pixels, and the page's `img-src 'self'` holds.
   */
  imagePrefixes: readonly string[];
  /**
   * Comments are short answers under a blog: headings become plain paragraphs and images become
   * links to them, so a comment can neither outshout the post nor fill the page with pictures.
   */
  comment?: boolean;
  /** The own size of stored images by URL, written on their `<img>` so the page reserves their room. */
  imageSizes?: ReadonlyMap<string, { width: number; height: number }>;
}

interface RenderEnv {
  imagePrefixes: readonly string[];
  comment: boolean;
  imageSizes?: ReadonlyMap<string, { width: number; height: number }>;
  /** Filled while rendering: the stored images the HTML shows. */
  imageUrls: Set<string>;
}

const md = new MarkdownIt({
  html: false, // raw HTML in a post is shown as text, never passed through
  linkify: true, // GFM autolinks: www.… and https://… in running text
  breaks: true, // a single line break stays a line break, as plain-text posts always showed it
  typographer: false,
  // markdown-it's default `maxNesting` (100) stays: past that depth the innermost content of a
  // list or quote is dropped, which bounds work and markup for hostile input.
  highlight: highlightCode,
});
limitBareLinksToGfm(md);
useGfmStrikethrough(md);
// Boxes are shown, never used: disabled, and labelled by wrapping rather than by the plugin's ids.
md.use(tasklist, { disabled: true, label: false, containerClass: 'contains-task-list' });
md.core.ruler.after('task_list', 'task_list_labels', labelTaskCheckboxes);
md.validateLink = isAllowedLink;
md.core.ruler.push('shift_headings', shiftHeadings);
md.core.ruler.push('mark_images_in_links', markImagesInLinks);
md.renderer.rules.image = renderImage;

/** What a blog's Markdown becomes; stored beside the source on every write. */
export interface RenderedMarkdown {
  /** Sanitised HTML for the blog's page. */
  html: string;
  /** Plain text, at most about 200 characters, cut at a word. */
  excerpt: string;
  readingMinutes: number;
  /**
   * The whole plain text (code included), for search in text and its snippets. Without control
   * characters: snippets mark matches with two of them.
   */
  text: string;
  /** The distinct URLs of this site's stored images that the HTML shows, in order of appearance. */
  imageUrls: string[];
}

/** Parsed once; the same tokens give the HTML, the excerpt and the word count. */
export function renderMarkdown(source: string, options: MarkdownOptions): RenderedMarkdown {
  const env: RenderEnv = {
    imagePrefixes: normaliseImagePrefixes(options.imagePrefixes),
    comment: options.comment === true,
    imageSizes: options.imageSizes,
    imageUrls: new Set(),
  };
  const tokens = md.parse(source, env);
  const html = sanitizeBlogMarkup(md.renderer.render(tokens, md.options, env), env.imagePrefixes, { comment: env.comment });
  const prose = excerptText(tokens);
  const everything = plainText(tokens, { withCode: true });
  return {
    html,
    // A post of nothing but code still gets an excerpt: its code (never an image's description).
    excerpt: excerptOf(prose || plainText(tokens, { withCode: true, withImages: false })),
    readingMinutes: readingMinutes(everything),
    // eslint-disable-next-line no-control-regex -- control characters are what is taken out
    text: everything.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, ''),
    imageUrls: [...env.imageUrls],
  };
}

/**
 * GFM turns bare `www.…`, `http(s)://…` and e-mail addresses into links. linkify-it also links any
 * word that ends like a domain (`readme.md`, `index.sh`), which would change how older plain-text
 * posts read; those matches (no scheme, no `www.`) are left as text.
 */
function limitBareLinksToGfm(parser: MarkdownIt): void {
  const match = parser.linkify.match.bind(parser.linkify);
  parser.linkify.match = (text: string) =>
    (match(text) ?? []).filter((link) => link.schema !== '' || /^www\./i.test(link.raw));
}

/**
 * Links may be web or mail addresses, or relative to this site. markdown-it's own check would
 * also let `data:image/…` through; anything refused here stays as plain text.
 */
function isAllowedLink(url: string): boolean {
  const trimmed = url.trim();
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(trimmed)?.[1]?.toLowerCase();
  if (scheme) return scheme === 'http' || scheme === 'https' || scheme === 'mailto';
  // Protocol-relative URLs (`//host`, or `\\host` which browsers treat the same) leave the site,
  // and a colon before the path (`java%09script:`) is a disguised scheme, not a page of ours.
  return !/^[\\/]{2}/.test(trimmed) && !/^[^/?#]*:/.test(trimmed);
}

/**
 * Each task's text becomes its checkbox's label by wrapping both in a `<label>` (no ids to clash
 * with the page's), so screen readers announce the task with its box.
 */
function labelTaskCheckboxes(state: { tokens: Token[]; Token: typeof Token }): void {
  for (const token of state.tokens) {
    const children = token.type === 'inline' ? token.children : null;
    if (!children || children[0]?.type !== 'checkbox_input') continue;
    children.unshift(new state.Token('task_label_open', 'label', 1));
    children.push(new state.Token('task_label_close', 'label', -1));
  }
}

/**
 * The blog's title is the page's only h1: `#` becomes h2, and nothing goes deeper than h6.
 * In a comment a heading is a plain paragraph.
 */
function shiftHeadings(state: { tokens: Token[]; env: RenderEnv }): void {
  for (const token of state.tokens) {
    if (token.type !== 'heading_open' && token.type !== 'heading_close') continue;
    if (state.env.comment) {
      token.type = token.type === 'heading_open' ? 'paragraph_open' : 'paragraph_close';
      token.tag = 'p';
      token.markup = '';
      continue;
    }
    const level = Number(token.tag.slice(1));
    token.tag = `h${Math.min(level + 1, 6)}`;
  }
}

/** An image this site stores is shown; any other becomes a link to it, labelled by its alt text. */
function renderImage(tokens: Token[], index: number, options: MarkdownIt['options'], env: RenderEnv, self: MarkdownIt['renderer']): string {
  const token = tokens[index]!;
  const src = token.attrGet('src') ?? '';
  const alt = self.renderInlineAsText(token.children ?? [], options, env);
  if (!env.comment && isStoredImageUrl(src, env.imagePrefixes)) {
    env.imageUrls.add(src);
    token.attrSet('alt', alt);
    const size = env.imageSizes?.get(src);
    if (size) {
      token.attrSet('width', String(size.width));
      token.attrSet('height', String(size.height));
    }
    token.attrSet('loading', 'lazy');
    return self.renderToken(tokens, index, options);
  }
  const label = md.utils.escapeHtml(alt.trim() || src);
  // Inside a link (`[![badge](…)](…)`) the label alone: links do not nest.
  return token.meta?.insideLink ? label : `<a href="${md.utils.escapeHtml(src)}">${label}</a>`;
}

/** One pass per paragraph, so a post of thousands of images costs no more than its length. */
function markImagesInLinks(state: { tokens: Token[] }): void {
  for (const block of state.tokens) {
    let depth = 0;
    for (const token of block.children ?? []) {
      if (token.type === 'link_open') depth++;
      else if (token.type === 'link_close') depth--;
      else if (token.type === 'image' && depth > 0) token.meta = { ...token.meta, insideLink: true };
    }
  }
}

/**
 * Highlighted on the server, so pages need no highlighter script. Only a named language is
 * highlighted: guessing runs every grammar over the code, too slow to do on each save.
 */
function highlightCode(code: string, language: string): string {
  const name = language.trim().toLowerCase();
  const highlighter = name ? highlighterFor(name) : undefined;
  if (highlighter) {
    const { value } = highlighter.hljs.highlight(code, { language: highlighter.language, ignoreIllegals: true });
    return `<pre><code class="hljs language-${md.utils.escapeHtml(name)}">${value}</code></pre>`;
  }
  // An unknown language is still named, as CommonMark does: a page's script or style may use it.
  const named = name ? ` language-${md.utils.escapeHtml(name)}` : '';
  return `<pre><code class="hljs${named}">${md.utils.escapeHtml(code)}</code></pre>`;
}
