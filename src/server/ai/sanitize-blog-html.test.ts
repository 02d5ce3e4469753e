import { describe, expect, it } from 'vitest';
import { sanitizeBlogHtml } from './sanitize-blog-html.js';

describe('sanitizeBlogHtml', () => {
  it('keeps a clean blog exactly as it is', () => {
    const html = "<h1>Why I Bake on Sundays</h1><p>It's quiet, and the bread doesn't mind.</p><p>Try it.</p>";
    expect(sanitizeBlogHtml(html)).toBe(html);
  });

  it('drops scripts and styles together with their content', () => {
    const out = sanitizeBlogHtml(
      '<h1>Title</h1><script>alert(1)</script><p>Text<style>p{color:red}</style></p><SCRIPT type="x">steal()</SCRIPT>',
    );
    expect(out).toBe('<h1>Title</h1><p>Text</p>');
  });

  it('removes every attribute, event handlers included', () => {
    const out = sanitizeBlogHtml(
      '<h1 onclick="alert(1)" class="big" style="color:red">Title</h1><p id="x" onmouseover="evil()">Body</p>',
    );
    expect(out).toBe('<h1>Title</h1><p>Body</p>');
  });

  it('removes links (keeping their text), images and iframes', () => {
    const out = sanitizeBlogHtml(
      '<p>Read <a href="javascript:alert(1)">this</a> and <a href="https://evil.example">that</a>.</p>' +
        '<p><img src=x onerror="alert(1)">Pictured</p><iframe src="https://evil.example">inside</iframe>',
    );
    expect(out).toBe('<p>Read this and that.</p><p>Pictured</p>');
  });

  it('removes headings and paragraphs left without text', () => {
    const out = sanitizeBlogHtml('<h1>  </h1><p><img src=x></p><p>&nbsp;</p><p></p><p>Kept</p>');
    expect(out).toBe('<p>Kept</p>');
  });

  it('keeps the text of other tags and flattens nesting', () => {
    const out = sanitizeBlogHtml(
      '<div><h1>A <em>bold</em> <span onclick="x()">claim</span></h1><section><p><b>One</b> <i>two</i></p></section></div>',
    );
    expect(out).toBe('<h1>A bold claim</h1><p>One two</p>');
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

  it('keeps encoded markup as harmless text, never decoding it into tags', () => {
    const out = sanitizeBlogHtml('<p>&lt;script&gt;alert(1)&lt;/script&gt; &amp;lt;b&amp;gt;</p><p>&#60;img src=x onerror=alert(1)&#62;</p>');
    expect(out).toBe('<p>&lt;script&gt;alert(1)&lt;/script&gt; &amp;lt;b&amp;gt;</p><p>&lt;img src=x onerror=alert(1)&gt;</p>');
  });

  it('drops comments, doctype, head and title of a whole document', () => {
    const out = sanitizeBlogHtml(
      '<!DOCTYPE html><html><head><title>Doc title</title><meta charset="utf-8"></head>' +
        '<body><!-- <script>alert(1)</script> --><h1>Real</h1><p>Body</p></body></html>',
    );
    expect(out).toBe('<h1>Real</h1><p>Body</p>');
  });

  it('drops the Markdown code fence a model wraps its HTML in', () => {
    expect(sanitizeBlogHtml('```html\n<h1>T</h1>\n<p>B</p>\n```')).toBe('<h1>T</h1>\n<p>B</p>');
  });
});
