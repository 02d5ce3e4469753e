import { parseDocument } from 'htmlparser2';
import { describe, expect, it } from 'vitest';
import { outgoingText } from './outgoing-text.js';
import { renderMarkdown } from './render-markdown.js';
import { expectSafeHtml } from '../testing/safe-html.js';

const SITE = 'https://blog.example';
const PAGE = `${SITE}/viewBlog?id=11111111-1111-4111-8111-111111111111`;
const LOCAL = ['/uploads/'];

const HOSTILE = 'intro <a href="vbscript:x">v</a> and <b>bold</b> and <iframe src="https://evil.example"></iframe>';

function outgoing(source: string, imagePrefixes = LOCAL, options: { comment?: boolean } = {}) {
  const rendered = renderMarkdown(source, { imagePrefixes, comment: options.comment });
  return { rendered, out: outgoingText(rendered, { pageUrl: PAGE, imagePrefixes, comment: options.comment }) };
}

/** Every element an HTML parser (htmlparser2, as feed readers' sanitisers use) builds from `html`. */
function elementsOf(html: string): string[] {
  const names: string[] = [];
  const walk = (node: { type: string; name?: string; children?: unknown[] }) => {
    if (node.type === 'tag' || node.type === 'script' || node.type === 'style') names.push(node.name!);
    for (const child of node.children ?? []) walk(child as typeof node);
  };
  walk(parseDocument(html) as never);
  return names;
}

const textOf = (html: string) => {
  const document = parseDocument(html, { decodeEntities: true });
  const collect = (node: { type: string; data?: string; children?: unknown[] }): string =>
    node.type === 'text' ? node.data! : (node.children ?? []).map((child) => collect(child as typeof node)).join('');
  return collect(document as never);
};

describe('outgoingText: text stays text', () => {
  it('gives the excerpt as plain text and, for HTML readers, escaped so no element is created', () => {
    const { out } = outgoing(HOSTILE);
    expect(out.text).toBe(HOSTILE);
    expect(elementsOf(out.textAsHtml)).toEqual([]);
    // An HTML reader shows exactly what was typed, the < and > visible.
    expect(textOf(out.textAsHtml)).toBe(HOSTILE);
    expect(out.textAsHtml).toBe(
      'intro &lt;a href=&quot;vbscript:x&quot;&gt;v&lt;/a&gt; and &lt;b&gt;bold&lt;/b&gt; and &lt;iframe src=&quot;https://evil.example&quot;&gt;&lt;/iframe&gt;',
    );
  });

  it('escapes entities written as text, so &amp; stays &amp; to the reader', () => {
    const { out } = outgoing('Tom &amp;amp; Jerry &lt; &#60; 5 > 3');
    expect(textOf(out.textAsHtml)).toBe(out.text);
    expect(elementsOf(out.textAsHtml)).toEqual([]);
  });
});

describe('outgoingText: the body is the page’s sanitised HTML, made absolute', () => {
  it('keeps what the page shows, with links and stored images absolute', () => {
    const { rendered, out } = outgoing(
      '## Title\n\nSee [the about page](/about), [a sibling](other?x=1), [mail](mailto:me@example.com) and [away](https://else.example/p).\n\n![A cat](/uploads/blogs/cat.webp)',
    );
    expect(rendered.html).toContain('href="/about"');
    expect(rendered.html).toContain('src="/uploads/blogs/cat.webp"');
    expect(out.html).toContain(`<a href="${SITE}/about" rel="nofollow ugc noopener">the about page</a>`);
    expect(out.html).toContain(`<a href="${SITE}/other?x=1" rel="nofollow ugc noopener">a sibling</a>`);
    expect(out.html).toContain('<a href="mailto:me@example.com" rel="nofollow ugc noopener">mail</a>');
    expect(out.html).toContain('<a href="https://else.example/p" rel="nofollow ugc noopener">away</a>');
    expect(out.html).toContain(`<img src="${SITE}/uploads/blogs/cat.webp" alt="A cat" loading="lazy" />`);
    expect(out.html).toContain('<h3>Title</h3>');
    // Nothing but the URLs changed.
    expect(out.html.replaceAll(SITE, '').replace('href="/other?x=1"', 'href="other?x=1"')).toBe(rendered.html);
    for (const [, url] of out.html.matchAll(/\s(?:href|src)="([^"]*)"/g)) expect(url).toMatch(/^(https?:\/\/|mailto:)/);
  });

  it('keeps images already stored at an absolute address (S3) as they are', () => {
    const cdn = ['https://cdn.example.com/bucket'];
    const { rendered, out } = outgoing('![x](https://cdn.example.com/bucket/blogs/a.webp)', cdn);
    expect(out.html).toBe(rendered.html);
    expect(out.html).toContain('<img src="https://cdn.example.com/bucket/blogs/a.webp"');
  });

  it('shows the hostile body as text inside a paragraph: no link, bold or frame', () => {
    const { out } = outgoing(HOSTILE);
    expect(elementsOf(out.html)).toEqual(['p', 'a']);
    // The only link is GFM's autolink of the address written in the text, made safe like every link.
    expect(out.html).toContain('<a href="https://evil.example" rel="nofollow ugc noopener">https://evil.example</a>');
    expect(textOf(out.html)).toBe(`${HOSTILE}\n`);
    // (`expectSafeHtml` reads attributes with a pattern, which the quoted text would fool; a parser cannot be.)
    const link = parseDocument(out.html).firstChild as unknown as { children: { type: string; attribs?: Record<string, string> }[] };
    expect(link.children.filter((node) => node.type === 'tag').map((node) => node.attribs)).toEqual([
      { href: 'https://evil.example', rel: 'nofollow ugc noopener' },
    ]);
  });

  it.each([
    ['a script', '<script>alert(1)</script><p>ok</p>', (html: string) => expect(html).toBe('<p>ok</p>')],
    ['an iframe', '<iframe src="https://evil.example"></iframe>', (html: string) => expect(html).toBe('')],
    ['an event handler', '<p onclick="alert(1)">x</p>', (html: string) => expect(html).toBe('<p>x</p>')],
    ['a javascript: link', '<a href="javascript:alert(1)">x</a>', (html: string) => expect(html).toBe('<a rel="nofollow ugc noopener">x</a>')],
    ['a vbscript: link', '<a href="vbscript:x">x</a>', (html: string) => expect(html).toBe('<a rel="nofollow ugc noopener">x</a>')],
    ['a disguised javascript: link', '<a href="java&#x09;script:alert(1)">x</a>', (html: string) => expect(html).not.toMatch(/href/)],
    ['a data: link', '<a href="data:text/html,x">x</a>', (html: string) => expect(html).not.toMatch(/href/)],
    ['a data: image', '<img src="data:image/png;base64,AAAA">', (html: string) => expect(html).toBe('')],
    ['a foreign image', '<img src="https://tracker.example/p.gif">', (html: string) => expect(html).toBe('')],
    ['a protocol-relative image under our prefix', '<img src="//evil.example/uploads/x.webp">', (html: string) => expect(html).toBe('')],
    ['a style element', '<style>p{}</style><p style="color:red">x</p>', (html: string) => expect(html).toBe('<p>x</p>')],
  ])('refuses %s even if it were in the stored HTML', (_label, stored, check) => {
    // The stored HTML is ours, already sanitised; this proves the way out does not rely on that.
    const out = outgoingText({ html: stored, excerpt: '' }, { pageUrl: PAGE, imagePrefixes: LOCAL });
    check(out.html);
    expectSafeHtml(out.html);
  });

  it('makes a comment’s links absolute and keeps it a comment (no images, no headings)', () => {
    const { out } = outgoing('# Loud\n\n[there](/about) ![pic](/uploads/blogs/cat.webp)', LOCAL, { comment: true });
    expect(out.html).toBe(
      `<p>Loud</p>\n<p><a href="${SITE}/about" rel="nofollow ugc noopener">there</a> <a href="${SITE}/uploads/blogs/cat.webp" rel="nofollow ugc noopener">pic</a></p>\n`,
    );
  });
});
