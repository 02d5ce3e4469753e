import { SaxesParser } from 'saxes';

/**
 * A strict XML 1.0 parser for the tests (saxes, the parser under jsdom): any well-formedness or
 * namespace error throws, where lenient parsers accept `]]>` in text, control characters or an
 * unknown entity. Returns a small tree with each element's own text, entities decoded.
 */

export interface XmlNode {
  name: string;
  attributes: Record<string, string>;
  children: XmlNode[];
  text: string;
}

export function parseXml(xml: string): XmlNode {
  const parser = new SaxesParser({ xmlns: true });
  const stack: XmlNode[] = [];
  let root: XmlNode | undefined;
  parser.on('error', (error) => {
    throw error;
  });
  parser.on('opentag', (tag) => {
    const node: XmlNode = {
      name: tag.name,
      attributes: Object.fromEntries(Object.values(tag.attributes).map((attribute) => [attribute.name, attribute.value])),
      children: [],
      text: '',
    };
    stack.at(-1)?.children.push(node);
    root ??= node;
    stack.push(node);
  });
  parser.on('closetag', () => {
    stack.pop();
  });
  const addText = (text: string) => {
    const current = stack.at(-1);
    if (current) current.text += text;
  };
  parser.on('text', addText);
  parser.on('cdata', addText);
  parser.write(xml).close();
  if (!root) throw new Error('no root element');
  return root;
}

export function childrenNamed(node: XmlNode, name: string): XmlNode[] {
  return node.children.filter((child) => child.name === name);
}

/** The only child of that name; throws when there is none or more than one. */
export function childNamed(node: XmlNode, name: string): XmlNode {
  const found = childrenNamed(node, name);
  if (found.length !== 1) throw new Error(`<${node.name}> has ${found.length} <${name}> children, expected 1`);
  return found[0]!;
}

/** The text of the only child of that name. */
export const textOf = (node: XmlNode, name: string) => childNamed(node, name).text;
