import { describe, expect, it } from 'vitest';
import { htmlToMarkdown } from './html-to-markdown.js';
import { LexicalError, lexicalToHtml } from './lexical-to-html.js';

/** Nodes as Ghost 5's editor writes them (`@tryghost/kg-default-nodes`), with their settings fields. */
const t = (text: string, format = 0) => ({ detail: 0, format, mode: 'normal', style: '', text, type: 'extended-text', version: 1 });
const element = (type: string, children: unknown[], extra: Record<string, unknown> = {}) => ({ children, direction: 'ltr', format: '', indent: 0, type, version: 1, ...extra });
const doc = (...children: unknown[]) => JSON.stringify({ root: element('root', children) });

const everyKind = doc(
  element('paragraph', [t('Plain, '), t('bold', 1), t(', '), t('italic', 2), t(' and '), t('code', 16), t('.')]),
  element('extended-heading', [t('A heading')], { tag: 'h2' }),
  element('list', [element('listitem', [t('one')], { value: 1 }), element('listitem', [t('two')], { value: 2 })], { listType: 'bullet', start: 1, tag: 'ul' }),
  element('list', [element('listitem', [t('first')], { value: 1 })], { listType: 'number', start: 1, tag: 'ol' }),
  element('extended-quote', [t('A quote.')]),
  element('paragraph', [t('See '), element('link', [t('the site')], { url: 'https://example.org/a_b', rel: null, target: null, title: null }), t('.')]),
  { type: 'image', version: 1, src: '__GHOST_URL__/content/images/2024/05/harbour.jpg', width: 64, height: 48, title: '', alt: 'The harbour', caption: 'Low <b>tide</b>', cardWidth: 'regular', href: '' },
  { type: 'codeblock', version: 1, code: 'echo "<tide>"', language: 'bash', caption: '' },
  { type: 'html', version: 1, html: '<table><tr><td>cell</td></tr></table>' },
  { type: 'markdown', version: 1, markdown: '### From Markdown\n\n- a *b*' },
  { type: 'horizontalrule', version: 1 },
  { type: 'bookmark', version: 1, url: 'https://example.org/read', metadata: { title: 'Worth reading', description: 'x' }, caption: '' },
  { type: 'callout', version: 1, calloutText: '<p>Mind the <b>gap</b></p>', calloutEmoji: '💡', backgroundColor: 'grey' },
  { type: 'future-card', version: 1, headline: 'Kept <em>headline</em>', items: [{ label: 'first item' }, { label: 'second item' }], cardWidth: 'wide' },
);

describe('lexicalToHtml (Ghost 5 posts exported with `lexical` and no `html`)', () => {
  it('renders text formats, paragraphs, headings, lists, quotes, links, images, code, HTML and Markdown cards', () => {
    const { html, keptAsText } = lexicalToHtml(everyKind);
    expect(html).toContain('<p>Plain, <strong>bold</strong>, <em>italic</em> and <code>code</code>.</p>');
    expect(html).toContain('<h2>A heading</h2>');
    expect(html).toContain('<ul><li>one</li><li>two</li></ul>');
    expect(html).toContain('<ol><li>first</li></ol>');
    expect(html).toContain('<blockquote><p>A quote.</p></blockquote>');
    expect(html).toContain('<a href="https://example.org/a_b">the site</a>');
    expect(html).toContain('<figure><img src="__GHOST_URL__/content/images/2024/05/harbour.jpg" alt="The harbour"><figcaption>Low <b>tide</b></figcaption></figure>');
    expect(html).toContain('<pre><code class="language-bash">echo &quot;&lt;tide&gt;&quot;</code></pre>');
    expect(html).toContain('<table><tr><td>cell</td></tr></table>');
    expect(html).toContain('<h3>From Markdown</h3>');
    expect(html).toContain('<hr>');
    expect(html).toContain('<a href="https://example.org/read">Worth reading</a>');
    expect(html).toContain('💡 <p>Mind the <b>gap</b></p>');
    expect(keptAsText).toEqual(['future-card']);
  });

  it('keeps every text of a card it does not know, never its settings', () => {
    const { html } = lexicalToHtml(everyKind);
    expect(html).toContain('<p>Kept headline</p><p>first item</p><p>second item</p>');
    expect(html).not.toContain('wide');
  });

  it('becomes the Markdown an imported post is kept as', () => {
    const markdown = htmlToMarkdown(lexicalToHtml(everyKind).html);
    expect(markdown).toContain('Plain, **bold**, *italic* and `code`.');
    expect(markdown).toContain('## A heading');
    expect(markdown).toMatch(/^- {1,3}one$/m);
    expect(markdown).toMatch(/^1\. {1,2}first$/m);
    expect(markdown).toContain('> A quote.');
    expect(markdown).toContain('[the site](https://example.org/a_b)');
    expect(markdown).toContain('![The harbour](__GHOST_URL__/content/images/2024/05/harbour.jpg)');
    expect(markdown).toContain('```bash\necho "<tide>"\n```');
    expect(markdown).toContain('### From Markdown');
    expect(markdown).toContain('Kept headline');
    expect(markdown).toContain('second item');
  });

  it('says what is wrong with a value that is not Lexical', () => {
    expect(() => lexicalToHtml('{"root":')).toThrow(LexicalError);
    expect(() => lexicalToHtml('{"mobiledoc":1}')).toThrow(/no "root" node/);
  });

  it('refuses a document nested deeper than any editor writes, rather than overflow the stack (a card too)', () => {
    let nested: Record<string, unknown> = t('deep');
    for (let i = 0; i < 100_000; i++) nested = element('paragraph', [nested]);
    expect(() => lexicalToHtml({ root: element('root', [nested]) })).toThrow(new LexicalError('nests deeper than 100 levels'));
    let card: Record<string, unknown> = { label: 'deep' };
    for (let i = 0; i < 100_000; i++) card = { items: [card] };
    expect(() => lexicalToHtml({ root: element('root', [{ type: 'future-card', ...card }]) })).toThrow(LexicalError);
  });
});
