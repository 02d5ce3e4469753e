import MarkdownIt from 'markdown-it';

/**
 * Ghost 5's editor format (Lexical's JSON, in a post's `lexical` column) as HTML, for posts
 * whose export has no `html`; the HTML then goes the way of every imported post (turndown to
 * Markdown, our renderer and sanitiser). Follows what Ghost renders for the web
 * (`@tryghost/kg-default-nodes`): text with its formats, paragraphs, headings, lists, quotes,
 * links, code blocks, images and galleries, HTML and Markdown cards, embeds and bookmarks (as a
 * link), callouts, toggles, buttons, files. A node of a type not known here is never dropped:
 * its children are rendered, or, for a card, every text it holds is kept as plain paragraphs and
 * named in `keptAsText`, for the report.
 */
export interface LexicalHtml {
  html: string;
  /** Card types rendered as their text only (unknown here), once each, in the order met. */
  keptAsText: string[];
}

type LexicalNode = { type?: unknown; children?: unknown; [field: string]: unknown };

export class LexicalError extends Error {}

/** Lexical's text format bits (`TextNode.format`) and the element each is, innermost first. */
const TEXT_FORMATS: ReadonlyArray<[bit: number, tag: string]> = [
  [16, 'code'],
  [1, 'strong'],
  [2, 'em'],
  [4, 's'],
  [8, 'u'],
  [32, 'sub'],
  [64, 'sup'],
  [128, 'mark'],
];

/** Fields of a node that are its editor's settings, not text a reader sees. */
const SETTING_FIELDS = new Set(['type', 'version', 'format', 'direction', 'indent', 'style', 'mode', 'detail', 'cardWidth', 'width', 'height', 'textAlign', 'alignment', 'layout', 'size', 'backgroundColor', 'accentColor', 'buttonColor', 'buttonTextColor', 'textColor', 'visibility', 'calloutEmoji']);

let markdown: MarkdownIt | undefined;

/** Deeper than any editor nests (lists in quotes in callouts): a hostile document would overflow the stack instead. */
const MAX_DEPTH = 100;

/** Card types kept as text (shared by the whole document), and how deep the node at hand is. */
interface Walk {
  kept: string[];
  depth: number;
}

function deeper(walk: Walk): Walk {
  if (walk.depth >= MAX_DEPTH) throw new LexicalError(`nests deeper than ${MAX_DEPTH} levels`);
  return { kept: walk.kept, depth: walk.depth + 1 };
}

export function lexicalToHtml(source: unknown): LexicalHtml {
  let document: unknown = source;
  if (typeof source === 'string') {
    try {
      document = JSON.parse(source);
    } catch (error) {
      throw new LexicalError(`is not JSON (${(error as Error).message})`);
    }
  }
  const root = (document as { root?: unknown } | null)?.root;
  if (!isNode(root)) throw new LexicalError('has no "root" node (not Lexical)');
  const keptAsText: string[] = [];
  const html = childrenOf(root, { kept: keptAsText, depth: 0 });
  return { html, keptAsText };
}

function isNode(value: unknown): value is LexicalNode {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function childrenOf(node: LexicalNode, walk: Walk): string {
  if (!Array.isArray(node.children)) return '';
  const inside = deeper(walk);
  return node.children
    .filter(isNode)
    .map((child) => nodeToHtml(child, inside))
    .join('');
}

const text = (value: unknown) => (typeof value === 'string' ? value : '');
const escape = (value: string) => value.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');
/** A caption or a card's rich field: Ghost keeps these as HTML already. */
const rich = (value: unknown) => text(value);
const link = (url: string, label: string) => (url ? `<p><a href="${escape(url)}">${label || escape(url)}</a></p>` : '');
const figure = (inner: string, caption: unknown) => (rich(caption) ? `<figure>${inner}<figcaption>${rich(caption)}</figcaption></figure>` : inner);

function nodeToHtml(node: LexicalNode, walk: Walk): string {
  const inner = () => childrenOf(node, walk);
  switch (node.type) {
    case 'root':
      return inner();
    case 'text':
    case 'extended-text':
      return formatText(text(node.text), typeof node.format === 'number' ? node.format : 0);
    case 'linebreak':
      return '<br>';
    case 'tab':
      return '\t';
    case 'paragraph':
      return `<p>${inner()}</p>`;
    case 'heading':
    case 'extended-heading': {
      const tag = /^h[1-6]$/.test(text(node.tag)) ? text(node.tag) : 'h2';
      return `<${tag}>${inner()}</${tag}>`;
    }
    case 'quote':
    case 'extended-quote':
    case 'aside':
      return `<blockquote><p>${inner()}</p></blockquote>`;
    case 'list': {
      const tag = node.listType === 'number' || node.tag === 'ol' ? 'ol' : 'ul';
      const start = tag === 'ol' && typeof node.start === 'number' && node.start !== 1 ? ` start="${node.start}"` : '';
      return `<${tag}${start}>${inner()}</${tag}>`;
    }
    case 'listitem': {
      const check = node.checked === true ? '[x] ' : node.checked === false ? '[ ] ' : '';
      return `<li>${check}${inner()}</li>`;
    }
    case 'link':
    case 'autolink':
      return `<a href="${escape(text(node.url))}">${inner()}</a>`;
    case 'horizontalrule':
      return '<hr>';
    case 'codeblock': {
      const language = text(node.language).replace(/[^\w+#.-]/g, '');
      const code = `<pre><code${language ? ` class="language-${language}"` : ''}>${escape(text(node.code))}</code></pre>`;
      return figure(code, node.caption);
    }
    case 'image':
      return figure(imageTag(node), node.caption);
    case 'gallery': {
      const images = Array.isArray(node.images) ? node.images.filter(isNode) : [];
      return figure(images.map((image) => `<p>${imageTag(image)}</p>`).join(''), node.caption);
    }
    case 'markdown':
      markdown ??= new MarkdownIt({ html: true });
      return markdown.render(text(node.markdown));
    case 'html':
      return text(node.html);
    case 'embed':
      return figure(text(node.html) || link(text(node.url), ''), node.caption);
    case 'bookmark': {
      const metadata = isNode(node.metadata) ? node.metadata : {};
      return figure(link(text(node.url), escape(text(metadata.title))), node.caption);
    }
    case 'video':
    case 'audio':
    case 'file':
      return figure(link(text(node.src), escape(text(node.title) || text(node.fileTitle) || text(node.fileName))), node.caption);
    case 'callout':
      return `<blockquote><div>${text(node.calloutEmoji) ? `${escape(text(node.calloutEmoji))} ` : ''}${rich(node.calloutText)}</div></blockquote>`;
    case 'toggle':
      return `<p><strong>${rich(node.heading)}</strong></p>${rich(node.content)}`;
    case 'button':
      return link(text(node.buttonUrl), escape(text(node.buttonText)));
    case 'paywall':
      // Ghost's members-only marker: this site has no members; what follows it is the post.
      return '';
    default:
      if (Array.isArray(node.children)) return `<div>${inner()}</div>`;
      return keepAsText(node, walk);
  }
}

function imageTag(node: LexicalNode): string {
  const src = text(node.src);
  if (!src) return '';
  const title = text(node.title) ? ` title="${escape(text(node.title))}"` : '';
  const image = `<img src="${escape(src)}" alt="${escape(text(node.alt))}"${title}>`;
  return text(node.href) ? `<a href="${escape(text(node.href))}">${image}</a>` : image;
}

function formatText(value: string, format: number): string {
  let html = escape(value);
  for (const [bit, tag] of TEXT_FORMATS) if (format & bit) html = `<${tag}>${html}</${tag}>`;
  return html;
}

/** A card of a type not known here: every text it holds, in order, as plain paragraphs (HTML fields lose their tags, not their words). */
function keepAsText(node: LexicalNode, walk: Walk): string {
  const type = typeof node.type === 'string' && node.type ? node.type : 'without a type';
  if (!walk.kept.includes(type)) walk.kept.push(type);
  const texts: string[] = [];
  const collect = (value: unknown, at: Walk, field?: string) => {
    if (field !== undefined && SETTING_FIELDS.has(field)) return;
    if (typeof value === 'string') {
      const plain = value.replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ').trim();
      if (plain) texts.push(plain);
    } else if (Array.isArray(value)) value.forEach((each) => collect(each, deeper(at)));
    else if (isNode(value)) for (const [key, each] of Object.entries(value)) collect(each, deeper(at), key);
  };
  collect(node, walk);
  return texts.map((each) => `<p>${escape(each)}</p>`).join('');
}
