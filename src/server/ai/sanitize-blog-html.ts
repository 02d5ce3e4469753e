import sanitizeHtml from 'sanitize-html';

/**
 * A generated blog is untrusted markup from a model: it may carry scripts, event handlers,
 * links or images, whether by prompt injection or by accident. Only headings and paragraphs
 * (spec: title in h1, content in p) and their text survive.
 */
const options: sanitizeHtml.IOptions = {
  allowedTags: ['h1', 'p'],
  allowedAttributes: {},
  // Unknown tags disappear but their text stays (a link's text, a <b>'s words).
  disallowedTagsMode: 'discard',
  // Tags whose content is code or metadata, not prose: dropped with everything inside.
  nonTextTags: [
    'script', 'style', 'textarea', 'option', 'xmp', 'noscript', 'template', 'iframe', 'object',
    'embed', 'noembed', 'noframes', 'head', 'title', 'svg', 'math', 'select', 'button',
  ],
  allowedSchemes: [],
  allowProtocolRelative: false,
  exclusiveFilter: (frame) => (frame.tag === 'h1' || frame.tag === 'p') && frame.text.trim() === '',
};

// Chat models often wrap HTML in a Markdown code fence; the fence is not part of the blog.
const CODE_FENCE_LINE = /^[ \t]*```[\w-]*[ \t]*$/gm;

/** Keeps only `<h1>` and `<p>` elements, without attributes, and their text. */
export function sanitizeBlogHtml(html: string): string {
  return sanitizeHtml(html.replace(CODE_FENCE_LINE, ''), options).trim();
}
