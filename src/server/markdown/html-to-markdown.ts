import TurndownService from 'turndown';

/**
 * Ghost's and WordPress's HTML as Markdown, through turndown (it parses with its own DOM, never
 * runs anything). What Markdown cannot say survives as text: WordPress shortcodes (`[gallery]`)
 * stay as written; block markers (`<!-- wp:paragraph -->`) are comments and go, their content
 * stays; embeds (iframes, scripts) become a link to their source. Our renderer sanitises the
 * result again when the blog is saved, as it does every blog.
 */
const turndown = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-', emDelimiter: '*' });

turndown.addRule('embeds', {
  filter: ['iframe', 'video', 'audio', 'embed', 'object'],
  replacement: (_content, node) => {
    const src = (node as HTMLElement).getAttribute?.('src') ?? '';
    return src ? `\n\n[${src}](${src})\n\n` : '';
  },
});
turndown.remove(['script', 'style', 'noscript']);
turndown.addRule('figcaption', {
  filter: 'figcaption',
  replacement: (content) => (content.trim() ? `\n\n*${content.trim()}*\n\n` : ''),
});

// Bare addresses (WordPress's embeds are a URL on its own line) stay addresses: escaping their `_`
// would break the link the renderer makes of them.
const escapeText = turndown.escape.bind(turndown);
const BARE_URL = /(https?:\/\/[^\s<>"]+)/g;
turndown.escape = (text: string) =>
  text
    .split(BARE_URL)
    .map((part, index) => (index % 2 === 1 ? part : escapeText(part)))
    .join('');

export function htmlToMarkdown(html: string): string {
  if (!html.trim()) return '';
  // WordPress keeps paragraphs as blank lines in `content:encoded` (its `wpautop`), not as <p>.
  const withParagraphs = /<(p|div|h[1-6]|ul|ol|figure)[\s>]/i.test(html) ? html : html.split(/\n\s*\n/).map((part) => `<p>${part}</p>`).join('\n');
  return turndown.turndown(withParagraphs).trim();
}
