/**
 * The one place text becomes XML. We write the few fixed shapes of RSS and sitemaps ourselves
 * instead of using the `feed` package: its XML writer (xml-js) puts titles in CDATA and splits
 * only the first `]]>`, so a title holding `]]>` twice yields a broken or altered document, and
 * it drops an `author` that is only an e-mail address, which is what RSS asks for.
 */

/** Markup built by `element`, so a raw string can never be passed where escaped XML belongs. */
export interface XmlFragment {
  readonly markup: string;
}

// XML 1.0 allows only these characters; any other (control characters, lone surrogates) would
// make the whole feed unreadable, so it is dropped.
const NOT_XML_CHAR = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

// `>` is escaped too, so `]]>` never appears; `\r` as a reference, since parsers turn a literal
// CR (or CRLF) into LF.
const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
  '\r': '&#xD;',
};

/** Text (or an attribute value) as XML character data. */
export function escapeXml(text: string): string {
  return text.replace(NOT_XML_CHAR, '').replace(/[&<>"'\r]/g, (char) => ESCAPES[char]!);
}

/** An attribute value: parsers turn a literal tab or newline there into a space, references survive. */
function escapeAttribute(value: string): string {
  return escapeXml(value).replace(/\t/g, '&#x9;').replace(/\n/g, '&#xA;');
}

/** `<name attr="...">text</name>`, or with child elements, or empty (`<name/>`). Names are ours, never input. */
export function element(
  name: string,
  content: string | readonly XmlFragment[] = [],
  attributes: Record<string, string> = {},
): XmlFragment {
  const attrs = Object.entries(attributes)
    .map(([key, value]) => ` ${key}="${escapeAttribute(value)}"`)
    .join('');
  if (typeof content === 'string') return { markup: `<${name}${attrs}>${escapeXml(content)}</${name}>` };
  if (content.length === 0) return { markup: `<${name}${attrs}/>` };
  return { markup: `<${name}${attrs}>\n${content.map((child) => child.markup).join('\n')}\n</${name}>` };
}

export function xmlDocument(root: XmlFragment): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n${root.markup}\n`;
}
