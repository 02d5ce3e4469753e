import { Parser } from 'htmlparser2';

/**
 * A small HTML tree for comparing two renderings of the same Markdown: parsed with htmlparser2
 * (entities decoded, names lower-cased), changed by the tests' models of deliberate differences,
 * and written back in one canonical form.
 */
export type HtmlNode = string | HtmlElement;
export interface HtmlElement {
  /** Lower-case tag name; `#root`, `#comment` and `#pi` for the document, comments and `<?…>`/`<!…>`. */
  tag: string;
  attrs: Record<string, string>;
  children: HtmlNode[];
}

export function parseHtml(html: string): HtmlElement {
  const root: HtmlElement = { tag: '#root', attrs: {}, children: [] };
  const stack: HtmlElement[] = [root];
  const top = () => stack[stack.length - 1]!;
  const parser = new Parser(
    {
      onopentag(name, attribs) {
        const element: HtmlElement = { tag: name, attrs: { ...attribs }, children: [] };
        top().children.push(element);
        stack.push(element);
      },
      onclosetag() {
        if (stack.length > 1) stack.pop();
      },
      ontext(text) {
        appendText(top(), text);
      },
      oncomment(data) {
        top().children.push({ tag: '#comment', attrs: {}, children: [data] });
      },
      onprocessinginstruction(_name, data) {
        top().children.push({ tag: '#pi', attrs: {}, children: [data] });
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.write(html);
  parser.end();
  return root;
}

function appendText(parent: HtmlElement, text: string): void {
  const last = parent.children.length - 1;
  if (typeof parent.children[last] === 'string') parent.children[last] += text;
  else parent.children.push(text);
}

/** A copy of `node` with `change` applied to every element, children first; `change` returns what replaces it. */
export function mapElements(node: HtmlElement, change: (element: HtmlElement, ancestors: readonly HtmlElement[]) => HtmlNode[]): HtmlElement {
  const walk = (element: HtmlElement, ancestors: readonly HtmlElement[]): HtmlElement => {
    const copy: HtmlElement = { tag: element.tag, attrs: { ...element.attrs }, children: [] };
    for (const child of element.children) {
      if (typeof child === 'string') {
        appendText(copy, child);
        continue;
      }
      for (const replacement of change(walk(child, [...ancestors, element]), [...ancestors, element])) {
        if (typeof replacement === 'string') appendText(copy, replacement);
        else copy.children.push(replacement);
      }
    }
    return copy;
  };
  return walk(node, []);
}

/** The text of a node, as a reader sees it. */
export function textOf(node: HtmlNode): string {
  return typeof node === 'string' ? node : node.children.map(textOf).join('');
}

const BLOCK_TAGS = new Set([
  'address', 'article', 'aside', 'blockquote', 'body', 'center', 'dd', 'details', 'dialog', 'dir', 'div', 'dl', 'dt',
  'fieldset', 'figcaption', 'figure', 'footer', 'form', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'head', 'header', 'hr',
  'html', 'li', 'main', 'menu', 'nav', 'ol', 'p', 'pre', 'section', 'summary', 'table', 'tbody', 'td', 'tfoot', 'th',
  'thead', 'title', 'tr', 'ul', '#root',
]);
const VOID_TAGS = new Set(['br', 'hr', 'img', 'input', 'area', 'base', 'col', 'embed', 'link', 'meta', 'source', 'track', 'wbr']);

const escapeText = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const escapeAttribute = (text: string) => escapeText(text).replace(/"/g, '&quot;');

/**
 * The canonical form, as the spec's own test runner normalises: attributes sorted, entities written
 * one way, `<br />` as `<br>`, and outside `<pre>` runs of white space are one space and white space
 * next to a block-level tag is none.
 */
export function serialiseHtml(root: HtmlElement): string {
  const write = (element: HtmlElement, inPre: boolean): string => {
    const pre = inPre || element.tag === 'pre';
    const parts: string[] = [];
    element.children.forEach((child, index) => {
      if (typeof child !== 'string') {
        parts.push(writeElement(child, pre));
        return;
      }
      if (pre) {
        parts.push(escapeText(child));
        return;
      }
      let text = child.replace(/\s+/g, ' ');
      const before = element.children[index - 1];
      const after = element.children[index + 1];
      const isBlock = (node: HtmlNode | undefined) => node === undefined || (typeof node !== 'string' && BLOCK_TAGS.has(node.tag));
      if (BLOCK_TAGS.has(element.tag) && isBlock(before)) text = text.trimStart();
      else if (before !== undefined && isBlock(before)) text = text.trimStart();
      if (BLOCK_TAGS.has(element.tag) && isBlock(after)) text = text.trimEnd();
      else if (after !== undefined && isBlock(after)) text = text.trimEnd();
      parts.push(escapeText(text));
    });
    return parts.join('');
  };
  const writeElement = (element: HtmlElement, inPre: boolean): string => {
    if (element.tag === '#comment') return `<!--${textOf(element)}-->`;
    if (element.tag === '#pi') return `<${textOf(element)}>`;
    const attributes = Object.keys(element.attrs)
      .sort()
      .map((name) => ` ${name}="${escapeAttribute(element.attrs[name]!)}"`)
      .join('');
    if (VOID_TAGS.has(element.tag)) return `<${element.tag}${attributes}>`;
    return `<${element.tag}${attributes}>${write(element, inPre)}</${element.tag}>`;
  };
  return write(root, false);
}
