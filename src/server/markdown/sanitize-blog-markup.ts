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

// sanitize-html's option, not yet in its published types.
type Options = sanitizeHtml.IOptions & { allowedEmptyAttributes: string[] };

function optionsFor(imagePrefixes: readonly string[], comment: boolean): Options {
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
      a: (tagName, attribs) => ({ tagName, attribs: { ...attribs, rel: LINK_REL } }),
      // Task-list boxes show state; they are never a form control that does anything.
      input: (tagName, attribs) => ({
        tagName,
        attribs: { type: 'checkbox', disabled: '', ...(attribs.checked !== undefined ? { checked: '' } : {}) },
      }),
    },
    // The renderer already turned foreign images into links; this holds even if it did not.
    exclusiveFilter: (frame) => frame.tag === 'img' && !isStoredImageUrl(frame.attribs.src ?? '', imagePrefixes),
  };
}

/**
 * Sanitises the renderer's HTML against the allow-list above; links get `rel="nofollow ugc noopener"`.
 * `imagePrefixes` are normalised (see `normaliseImagePrefixes`).
 */
export function sanitizeBlogMarkup(html: string, imagePrefixes: readonly string[], options: { comment?: boolean } = {}): string {
  return sanitizeHtml(html, optionsFor(imagePrefixes, options.comment === true));
}
