import sanitizeHtml from 'sanitize-html';
import { isStoredImageUrl } from './stored-image-url.js';

/** What a rendered blog's markup may hold: the elements Markdown produces, nothing more. */
const ALLOWED_TAGS = [
  'h2', 'h3', 'h4', 'h5', 'h6', 'p', 'br', 'hr', 'blockquote', 'pre', 'code', 'span',
  'strong', 'em', 's', 'del', 'a', 'img', 'ul', 'ol', 'li', 'input', 'label',
  'table', 'thead', 'tbody', 'tr', 'th', 'td',
];

const LINK_REL = 'nofollow ugc noopener';

/** A comment's markup: no headings and no images (the renderer makes them paragraphs and links). */
const COMMENT_TAGS = ALLOWED_TAGS.filter((tag) => !/^h\d$/.test(tag) && tag !== 'img');

/**
 * `href`/`src` resolved against `base` as a browser on the page would, or undefined when the result
 * is not a web or mail address (the attribute is then dropped).
 */
function absoluteUrl(url: string, base: string): string | undefined {
  const allowed = (parsed: URL) => ['http:', 'https:', 'mailto:'].includes(parsed.protocol);
  // An absolute address stays exactly as written; only relative ones are resolved.
  const asWritten = URL.parse(url);
  if (asWritten) return allowed(asWritten) ? url : undefined;
  const resolved = URL.parse(url, base);
  return resolved && allowed(resolved) ? resolved.href : undefined;
}

/** The attributes in their order, with `name` made absolute (or left out when it cannot be). */
function withAbsolute(attribs: Record<string, string>, name: 'href' | 'src', base: string | undefined): Record<string, string> {
  if (base === undefined) return attribs;
  return Object.fromEntries(
    Object.entries(attribs).flatMap(([key, value]) => {
      if (key !== name) return [[key, value]];
      const resolved = absoluteUrl(value, base);
      return resolved === undefined ? [] : [[key, resolved]];
    }),
  );
}

// sanitize-html's option, not yet in its published types.
type Options = sanitizeHtml.IOptions & { allowedEmptyAttributes: string[] };

function optionsFor(imagePrefixes: readonly string[], comment: boolean, absoluteBase: string | undefined): Options {
  // Once made absolute, a stored image's URL starts with the absolute form of its prefix.
  const storedPrefixes =
    absoluteBase === undefined ? imagePrefixes : [...imagePrefixes, ...imagePrefixes.flatMap((prefix) => absoluteUrl(prefix, absoluteBase) ?? [])];
  return {
    allowedTags: comment ? COMMENT_TAGS : ALLOWED_TAGS,
    allowedAttributes: {
      a: ['href', 'title', 'rel'],
      // Width and height come from the stored image's record, never from the Markdown (no raw HTML).
      img: ['src', 'alt', 'title', 'width', 'height', 'loading'],
      ol: ['start'],
      input: ['type', 'checked', 'disabled'],
      th: ['style'],
      td: ['style'],
      code: ['class'],
      span: ['class'],
      ul: ['class'],
      li: ['class'],
    },
    allowedClasses: {
      code: ['hljs', 'language-*'],
      span: ['hljs-*', 'language-*'],
      ul: ['contains-task-list'],
      li: ['task-list-item'],
    },
    // Table column alignment is the only style Markdown writes.
    allowedStyles: { '*': { 'text-align': [/^(left|right|center)$/] } },
    // `[a]()` is a link to this very page (CommonMark keeps `href=""`); alt="" marks a decorative image.
    allowedEmptyAttributes: ['alt', 'href'],
    allowedSchemes: ['http', 'https', 'mailto'],
    allowedSchemesByTag: { img: ['http', 'https'] },
    allowProtocolRelative: false,
    transformTags: {
      a: (tagName, attribs) => ({ tagName, attribs: { ...withAbsolute(attribs, 'href', absoluteBase), rel: LINK_REL } }),
      img: (tagName, attribs) => ({ tagName, attribs: withAbsolute(attribs, 'src', absoluteBase) }),
      // Task-list boxes show state; they are never a form control that does anything.
      input: (tagName, attribs) => ({
        tagName,
        attribs: { type: 'checkbox', disabled: '', ...(attribs.checked !== undefined ? { checked: '' } : {}) },
      }),
    },
    // The renderer already turned foreign images into links; this holds even if it did not.
    exclusiveFilter: (frame) => frame.tag === 'img' && !isStoredImageUrl(frame.attribs.src ?? '', storedPrefixes),
  };
}

export interface SanitizeOptions {
  comment?: boolean;
  /**
   * For markup that leaves the site (feeds, e-mail): every link and image URL is resolved
   * against this absolute URL (the page the markup belongs to), since a feed reader or a mail
   * program has no page to resolve `/uploads/…` against.
   */
  absoluteBase?: string;
}

/**
 * Sanitises the renderer's HTML against the allow-list above; links get `rel="nofollow ugc noopener"`.
 * `imagePrefixes` are normalised (see `normaliseImagePrefixes`).
 */
export function sanitizeBlogMarkup(html: string, imagePrefixes: readonly string[], options: SanitizeOptions = {}): string {
  return sanitizeHtml(html, optionsFor(imagePrefixes, options.comment === true, options.absoluteBase));
}
