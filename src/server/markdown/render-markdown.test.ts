import { describe, expect, it } from 'vitest';
import { renderMarkdown } from './render-markdown.js';
import { isStoredImageUrl } from './stored-image-url.js';
import { expectSafeHtml } from '../testing/safe-html.js';

const OWN = ['/uploads/', 'https://cdn.example.com/bucket'];
const html = (source: string) => renderMarkdown(source, { imagePrefixes: OWN }).html;
const expectToContainAll = (out: string, parts: string[]) => {
  for (const part of parts) expect(out).toContain(part);
};

describe('renderMarkdown: Markdown', () => {
  it.each<[string, [source: string, rendered: string][]]>([
    [
      'renders GFM strikethrough as <del>, with one tilde or two',
      [
        ['~~gone~~ stays', '<p><del>gone</del> stays</p>\n'],
        // The GFM spec's examples.
        ['~~Hi~~ Hello, ~there~ world!', '<p><del>Hi</del> Hello, <del>there</del> world!</p>\n'],
        ['This ~~has a\n\nnew paragraph~~.', '<p>This ~~has a</p>\n<p>new paragraph~~.</p>\n'],
        ['This will ~~~not~~~ strike.', '<p>This will ~~~not~~~ strike.</p>\n'],
      ],
    ],
    [
      'strikes only between runs of the same length, flanking like emphasis',
      [
        ['~one~~ and ~~two~', '<p><del>one~~ and ~~two</del></p>\n'],
        ['~~a ~b~ c~~', '<p><del>a <del>b</del> c</del></p>\n'],
        ['in~~side~~word and **~in strong~**', '<p>in<del>side</del>word and <strong><del>in strong</del></strong></p>\n'],
        ['a ~ b ~ c and ~ spaced~', '<p>a ~ b ~ c and ~ spaced~</p>\n'],
        ['`~code~` \\~escaped~', '<p><code>~code~</code> ~escaped~</p>\n'],
      ],
    ],
    [
      'escapes code of an unknown or missing language without guessing, and keeps a named language as a class',
      [
        ['```\n<b>x</b>\n```', '<pre><code class="hljs">&lt;b&gt;x&lt;/b&gt;\n</code></pre>\n'],
        ['```nosuchlanguage\na < b\n```', '<pre><code class="hljs language-nosuchlanguage">a &lt; b\n</code></pre>\n'],
        // CommonMark: the info string's first word, unescaped, after `language-`.
        ['``` foo\\+bar extra words\nfoo\n```', '<pre><code class="hljs language-foo+bar">foo\n</code></pre>\n'],
      ],
    ],
    [
      'keeps the empty target of a link: a link to the page itself, as CommonMark renders it',
      [
        ['[link]()', '<p><a href="" rel="nofollow ugc noopener">link</a></p>\n'],
        ['[link](<>)', '<p><a href="" rel="nofollow ugc noopener">link</a></p>\n'],
        ['[foo]: <>\n\n[foo]', '<p><a href="" rel="nofollow ugc noopener">foo</a></p>\n'],
      ],
    ],
  ])('%s', (_name, cases) => {
    for (const [source, rendered] of cases) expect(html(source)).toBe(rendered);
  });

  it.each<[string, string, string[]]>([
    [
      'renders GFM tables with column alignment',
      '| left | right |\n|:--|--:|\n| 1 | 2 |',
      [
        '<table>',
        '<th style="text-align:left">left</th>',
        '<td style="text-align:right">2</td>',
      ],
    ],
    [
      'renders GFM task lists as disabled checkboxes labelled by their task',
      '- [ ] to do\n- [x] done\n- plain',
      [
        '<ul class="contains-task-list">',
        '<li class="task-list-item"><label><input type="checkbox" disabled /> to do</label></li>',
        '<li class="task-list-item"><label><input type="checkbox" disabled checked /> done</label></li>',
        '<li>plain</li>',
      ],
    ],
    [
      'turns bare web and mail addresses into links (GFM autolinks)',
      'See www.example.com, https://example.org/x and mail me@example.com.',
      [
        '<a href="http://www.example.com" rel="nofollow ugc noopener">www.example.com</a>',
        '<a href="https://example.org/x" rel="nofollow ugc noopener">https://example.org/x</a>',
        '<a href="mailto:me@example.com" rel="nofollow ugc noopener">me@example.com</a>',
      ],
    ],
  ])('%s', (_name, source, parts) => {
    expectToContainAll(html(source), parts);
  });

  it('renders CommonMark emphasis, code and links, with safe rel on every link', () => {
    const out = html('Some **bold**, *em* and `code` with a [link](https://example.com/a?b=1).');
    expect(out).toBe(
      '<p>Some <strong>bold</strong>, <em>em</em> and <code>code</code> with a ' +
        '<a href="https://example.com/a?b=1" rel="nofollow ugc noopener">link</a>.</p>\n',
    );
  });

  it('keeps single line breaks of plain text as <br> and blank lines as paragraphs', () => {
    expect(html('First line.\nSecond line.\n\nA new paragraph.')).toBe(
      '<p>First line.<br />\nSecond line.</p>\n<p>A new paragraph.</p>\n',
    );
  });

  it('leaves words that only look like domains as text, as GFM does', () => {
    expect(html('Read readme.md, run build.sh, see example.com.')).toBe('<p>Read readme.md, run build.sh, see example.com.</p>\n');
  });

  it('shifts headings one level down so the blog title stays the only h1, never below h6', () => {
    const out = html('# One\n\n## Two\n\n##### Five\n\n###### Six');
    expect(out).toBe('<h2>One</h2>\n<h3>Two</h3>\n<h6>Five</h6>\n<h6>Six</h6>\n');
    expect(html('One\n===\n\nTwo\n---')).toBe('<h2>One</h2>\n<h3>Two</h3>\n');
  });

  it('highlights a fenced code block of a named language on the server', () => {
    const out = html('```ts\nconst answer: number = 42; // why\n```');
    expect(out).toMatch(/^<pre><code class="hljs language-ts">/);
    expectToContainAll(out, [
      '<span class="hljs-keyword">const</span>',
      '<span class="hljs-number">42</span>',
      '<span class="hljs-comment">// why</span>',
    ]);
  });

  it('keeps a named language that tries to break out of its class as text', () => {
    const out = html('```x"onmouseover="alert(1)\ny\n```');
    expectSafeHtml(out);
    expect(out).toMatch(/^<pre><code class="hljs language-x&(quot|#34);onmouseover=&(quot|#34);alert\(1\)">y\n<\/code><\/pre>\n$/);
  });

  it('links e-mail addresses with + and dotted domains, bare and in angle brackets', () => {
    expect(html('Write to first.last+tag@mail.example.co.uk.')).toBe(
      '<p>Write to <a href="mailto:first.last+tag@mail.example.co.uk" rel="nofollow ugc noopener">first.last+tag@mail.example.co.uk</a>.</p>\n',
    );
    expect(html('<foo+bar@example.com>')).toBe('<p><a href="mailto:foo+bar@example.com" rel="nofollow ugc noopener">foo+bar@example.com</a></p>\n');
    expect(html('<first.last+tag@mail.example.co.uk>')).toBe(
      '<p><a href="mailto:first.last+tag@mail.example.co.uk" rel="nofollow ugc noopener">first.last+tag@mail.example.co.uk</a></p>\n',
    );
  });
});

describe('renderMarkdown: images', () => {
  it('shows images stored by this site, locally or in the S3 bucket', () => {
    expect(html('![A cat](/uploads/blogs/cat-1.webp)')).toBe(
      '<p><img src="/uploads/blogs/cat-1.webp" alt="A cat" loading="lazy" /></p>\n',
    );
    expect(html('![](https://cdn.example.com/bucket/blogs/cat.webp "Title")')).toBe(
      '<p><img src="https://cdn.example.com/bucket/blogs/cat.webp" alt="" title="Title" loading="lazy" /></p>\n',
    );
  });

  it('turns an image from anywhere else into a link: no tracking pixels', () => {
    expect(html('![pixel](https://tracker.example/p.gif)')).toBe(
      '<p><a href="https://tracker.example/p.gif" rel="nofollow ugc noopener">pixel</a></p>\n',
    );
    expect(html('![](https://tracker.example/p.gif)')).toContain('>https://tracker.example/p.gif</a>');
    // Look-alikes of an allowed prefix are foreign too.
    for (const src of ['https://cdn.example.com/bucket-evil/x.webp', 'https://cdn.example.com.evil.example/bucket/x.webp', '/uploads/../api/blogs', '/uploadsx/a.webp']) {
      const out = html(`![x](${src})`);
      expect(out, src).not.toContain('<img');
      expect(out, src).toContain('<a href=');
    }
  });

  it('inside a link, a foreign image is just its text (links do not nest)', () => {
    expect(html('[![badge](https://ci.example/b.svg)](https://ci.example)')).toBe(
      '<p><a href="https://ci.example" rel="nofollow ugc noopener">badge</a></p>\n',
    );
  });

  it('with no allowed prefixes, no image is shown', () => {
    expect(renderMarkdown('![x](/uploads/blogs/a.webp)', { imagePrefixes: [] }).html).not.toContain('<img');
  });

  it('isStoredImageUrl needs the prefix and a plain key after it', () => {
    expect(isStoredImageUrl('/uploads/blogs/a.webp', ['/uploads/'])).toBe(true);
    expect(isStoredImageUrl('/uploads/blogs/../../x', ['/uploads/'])).toBe(false);
    expect(isStoredImageUrl('/uploads/', ['/uploads/'])).toBe(false);
    expect(isStoredImageUrl('/uploads/a.webp?x=<', ['/uploads/'])).toBe(false);
  });
});

describe('renderMarkdown: hostile input', () => {
  const OWN_IMAGE = '/uploads/blogs/ok.webp';
  const hostile: Array<[string, string, (out: string) => void]> = [
    ['a script tag', '<script>alert(1)</script>', (out) => expect(out).toContain('&lt;script&gt;alert(1)&lt;/script&gt;')],
    ['a script tag in a list', '- <script src="https://evil.example/x.js"></script>', (out) => expect(out).not.toContain('<script')],
    ['raw HTML with an event handler', '<img src=x onerror=alert(1)> <b onclick="alert(1)">b</b>', (out) => expect(out).toContain('&lt;img src=x onerror=alert(1)&gt;')],
    ['a raw iframe', '<iframe src="https://evil.example"></iframe>', (out) => expect(out).toContain('&lt;iframe')],
    ['raw svg and style', '<svg onload=alert(1)></svg><style>body{display:none}</style>', (out) => expect(out).not.toMatch(/<(svg|style)/)],
    ['an HTML comment', '<!-- <script>alert(1)</script> -->', (out) => expect(out).toContain('&lt;!--')],
    ['a javascript: link', '[click](javascript:alert(1))', (out) => expect(out).toBe('<p>[click](javascript:alert(1))</p>\n')],
    ['a javascript: link in odd case', '[click](JaVaScRiPt:alert(1))', (out) => expect(out).not.toContain('<a')],
    ['a javascript: link hidden by an entity', '[click](java&#x09;script:alert(1))', (out) => expect(out).not.toMatch(/href="java\s*script:/i)],
    ['a javascript: autolink', '<javascript:alert(1)>', (out) => expect(out).not.toContain('<a')],
    ['a javascript: reference link', '[x]: javascript:alert(1)\n\n[click][x]', (out) => expect(out).not.toContain('<a')],
    ['a data: link', '[click](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)', (out) => expect(out).not.toContain('<a')],
    ['a data: image', '![x](data:image/png;base64,iVBORw0KGgo=)', (out) => expect(out).not.toMatch(/<(img|a)\s/)],
    ['a vbscript: link', '[click](vbscript:msgbox(1))', (out) => expect(out).not.toContain('<a')],
    ['a protocol-relative link', '[click](//evil.example/x)', (out) => expect(out).not.toContain('<a')],
    ['a title that tries to break out', `[x](https://ok.example "\\" onmouseover=\\"alert(1)")`, (out) => expect(out).toMatch(/^<p><a href="https:\/\/ok.example" title="&(quot|#34);\s*onmouseover=&(quot|#34);alert\(1\)" rel="nofollow ugc noopener">x<\/a><\/p>\n$/)],
    ['an own image with a breaking title', `![x](${OWN_IMAGE} "\\" onerror=\\"alert(1)")`, (out) => expect(out).toContain('<img')],
    ['nested emphasis bomb', '*'.repeat(20_000) + 'a' + '*'.repeat(20_000), (out) => expect(out.length).toBeGreaterThan(0)],
    ['alternating emphasis bomb', '*a **a ***a _a __a '.repeat(5_000), (out) => expect(out.length).toBeGreaterThan(0)],
    ['1 MB of [', '['.repeat(1024 * 1024), (out) => expect(out).toMatch(/^<p>\[+<\/p>\n$/)],
    ['1 MB of unclosed links', '[a]('.repeat(250_000), (out) => expect(out.startsWith('<p>[a](')).toBe(true)],
    // Past markdown-it's nesting limit the rest is dropped: bounded, and only the author's own post suffers.
    ['deeply nested lists', Array.from({ length: 2_000 }, (_, i) => `${'  '.repeat(i)}- level ${i}`).join('\n'), (out) => expect(out).toMatch(/^<ul>\n<li>level 0\n<ul>\n<li>level 1\n/)],
    ['deeply nested quotes', `${'>'.repeat(100_000)} deep\n\nafter`, (out) => expect(out).toContain('<p>after</p>')],
    ['deeply nested brackets and backticks', '`'.repeat(50_000) + '['.repeat(50_000) + '<'.repeat(50_000), (out) => expect(out.length).toBeGreaterThan(0)],
    ['thousands of images inside links', '[![x](https://a.example/i.png)](https://b.example)'.repeat(20_000), (out) => expect(out).not.toContain('<img')],
    ['1 MB of tildes', `x ${'~'.repeat(1024 * 1024)}`, (out) => expect(out).not.toContain('<del>')],
    ['strikethrough openers that never close', '~a ~~a '.repeat(150_000), (out) => expect(out).not.toContain('<del>')],
    ['a huge table', `|${'a|'.repeat(2_000)}\n|${'-|'.repeat(2_000)}\n${`|${'b|'.repeat(2_000)}\n`.repeat(20)}`, (out) => expect(out).toContain('<table>')],
  ];

  // Linear work on 1 MB takes at most a few seconds of CPU; quadratic work on 1 MB (10^12 steps)
  // would take hours. The bound sits in between, and counts this thread's CPU time, not the wall
  // clock, so a machine busy with other work (a CI run's other stages) does not move it.
  const BOUND_MS = 30_000;

  it.each(hostile)('%s renders safely in bounded time', { timeout: 4 * BOUND_MS }, (_name, source, check) => {
    const started = process.threadCpuUsage();
    const out = html(source);
    const spent = process.threadCpuUsage(started);
    expect((spent.user + spent.system) / 1000).toBeLessThan(BOUND_MS);
    expectSafeHtml(out);
    check(out);
  });
});

describe('renderMarkdown: comments', () => {
  const comment = (source: string) => renderMarkdown(source, { imagePrefixes: OWN, comment: true }).html;

  it('renders headings of every kind as plain paragraphs', () => {
    const out = comment('# x\n\n### Three\n\nSetext\n===');
    expect(out).not.toMatch(/<h\d/);
    expect(out).toBe('<p>x</p>\n<p>Three</p>\n<p>Setext</p>\n');
    // The same source in a blog does make headings: the option is what removes them.
    expect(html('# x')).toBe('<h2>x</h2>\n');
  });

  it('turns even images stored by this site into links, never <img>', () => {
    const out = comment('![a](/uploads/blogs/cat-1.webp) and ![](https://cdn.example.com/bucket/x.webp)');
    expect(out).not.toContain('<img');
    expectToContainAll(out, [
      '<a href="/uploads/blogs/cat-1.webp" rel="nofollow ugc noopener">a</a>',
      '<a href="https://cdn.example.com/bucket/x.webp" rel="nofollow ugc noopener">https://cdn.example.com/bucket/x.webp</a>',
    ]);
    expect(html('![a](/uploads/blogs/cat-1.webp)')).toContain('<img');
  });

  it('keeps the rest of Markdown, sanitised, and raw HTML headings and images stay text', () => {
    const out = comment('Some **bold** and `code`.\n\n<h1>raw</h1><img src="/uploads/x.webp">\n\n- a\n- b');
    expectToContainAll(out, [
      '<strong>bold</strong>',
      '<code>code</code>',
      '<ul>',
      '&lt;h1&gt;raw&lt;/h1&gt;&lt;img src="/uploads/x.webp"&gt;',
    ]);
    expectSafeHtml(out);
  });
});
