import { describe, expect, it } from 'vitest';
import { sanitizeBlogHtml } from './sanitize-blog-html.js';

describe('sanitizeBlogHtml', () => {
  it.each([
    [
      'drops scripts and styles together with their content',
      '<h1>Title</h1><script>alert(1)</script><p>Text<style>p{color:red}</style></p><SCRIPT type="x">steal()</SCRIPT>',
      '<h1>Title</h1><p>Text</p>',
    ],
    [
      'removes every attribute, event handlers included',
      '<h1 onclick="alert(1)" class="big" style="color:red">Title</h1><p id="x" onmouseover="evil()">Body</p>',
      '<h1>Title</h1><p>Body</p>',
    ],
    [
      'removes links (keeping their text), images and iframes',
      '<p>Read <a href="javascript:alert(1)">this</a> and <a href="https://evil.example">that</a>.</p>' +
        '<p><img src=x onerror="alert(1)">Pictured</p><iframe src="https://evil.example">inside</iframe>',
      '<p>Read this and that.</p><p>Pictured</p>',
    ],
    [
      'removes headings and paragraphs left without text',
      '<h1>  </h1><p><img src=x></p><p>&nbsp;</p><p></p><p>Kept</p>',
      '<p>Kept</p>',
    ],
    [
      'keeps the text of other tags and flattens nesting',
      '<div><h1>A <em>bold</em> <span onclick="x()">claim</span></h1><section><p><b>One</b> <i>two</i></p></section></div>',
      '<h1>A bold claim</h1><p>One two</p>',
    ],
    [
      'keeps encoded markup as harmless text, never decoding it into tags',
      '<p>&lt;script&gt;alert(1)&lt;/script&gt; &amp;lt;b&amp;gt;</p><p>&#60;img src=x onerror=alert(1)&#62;</p>',
      '<p>&lt;script&gt;alert(1)&lt;/script&gt; &amp;lt;b&amp;gt;</p><p>&lt;img src=x onerror=alert(1)&gt;</p>',
    ],
    [
      'drops comments, doctype, head and title of a whole document',
      '<!DOCTYPE html><html><head><title>Doc title</title><meta charset="utf-8"></head>' +
        '<body><!-- <script>alert(1)</script> --><h1>Real</h1><p>Body</p></body></html>',
      '<h1>Real</h1><p>Body</p>',
    ],
  ])('%s', (_name, input, sanitized) => {
    expect(sanitizeBlogHtml(input)).toBe(sanitized);
  });

  it('keeps a clean blog exactly as it is', () => {
    const html = "<h1>Why I Bake on Sundays</h1><p>It's quiet, and the bread doesn't mind.</p><p>Try it.</p>";
    expect(sanitizeBlogHtml(html)).toBe(html);
  });

  it('closes unclosed tags and drops an unclosed script to the end', () => {
    expect(sanitizeBlogHtml('<h1>Half a tit')).toBe('<h1>Half a tit</h1>');
    expect(sanitizeBlogHtml('<p>Safe</p><p>then <script>alert(1); more')).toBe('<p>Safe</p><p>then </p>');
  });

  it('never lets a partial or malformed tag through as markup', () => {
    for (const input of [
      '<p>ok</p><img src=x onerror=alert(1)',
      '<p>ok</p><scr',
      '<p>ok<</p>script>alert(1)<//script>',
      '<p>ok</p><svg><script>alert(1)</script></svg><svg onload=alert(1)>',
      '<<script>script>alert(1)<</script>/script>',
    ]) {
      // Text is escaped, so every raw '<' left must open or close an h1 or a p.
      expect(sanitizeBlogHtml(input)).not.toMatch(/<(?!\/?(h1|p)>)/);
    }
  });

  it('drops the Markdown code fence a model wraps its HTML in', () => {
    expect(sanitizeBlogHtml('```html\n<h1>T</h1>\n<p>B</p>\n```')).toBe('<h1>T</h1>\n<p>B</p>');
  });
});
