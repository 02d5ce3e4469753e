import { parseDocument } from 'htmlparser2';

/**
 * How a feed reader sees a piece of HTML, read with htmlparser2 (the parser under cheerio and
 * many readers' sanitisers): the elements it creates, and the text it shows, entities decoded.
 */

interface Node {
  type: string;
  name?: string;
  data?: string;
  attribs?: Record<string, string>;
  children?: Node[];
}

function walk(node: Node, visit: (node: Node) => void) {
  visit(node);
  for (const child of node.children ?? []) walk(child, visit);
}

const parse = (html: string) => parseDocument(html, { decodeEntities: true }) as unknown as Node;

/** Every element (`tag`, `script`, `style`) the HTML creates, in document order. */
export function htmlElements(html: string): { name: string; attribs: Record<string, string> }[] {
  const found: { name: string; attribs: Record<string, string> }[] = [];
  walk(parse(html), (node) => {
    if (node.type === 'tag' || node.type === 'script' || node.type === 'style') found.push({ name: node.name!, attribs: node.attribs ?? {} });
  });
  return found;
}

/** The text the HTML shows. */
export function htmlText(html: string): string {
  let text = '';
  walk(parse(html), (node) => {
    if (node.type === 'text') text += node.data;
  });
  return text;
}
