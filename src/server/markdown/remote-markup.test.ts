import { describe, expect, it } from 'vitest';
import { remoteCommentMarkup, remoteMarkup } from './remote-markup.js';

const BASE = 'https://remote.example/@alice/109';

describe('markup from another site', () => {
  it('resolves relative links against the page it came from, never against this site', () => {
    const html = remoteMarkup('<p><a href="/tags/cats">#cats</a> and <a href="notes/2">more</a></p>', BASE);
    expect(html).toContain('href="https://remote.example/tags/cats"');
    expect(html).toContain('href="https://remote.example/@alice/notes/2"');
    expect(html).toContain('rel="nofollow ugc noopener"');
  });

  it('drops scripts, handlers, javascript: links and every image', () => {
    const html = remoteMarkup('<p onclick="x()">Hi<script>alert(1)</script><img src="https://remote.example/a.png"><a href="javascript:alert(1)">x</a></p>', BASE);
    expect(html).not.toMatch(/script|onclick|<img|javascript:/i);
    expect(html).toContain('Hi');
  });

  it('keeps a post\'s headings, but a comment has none; a comment comes with its plain text', () => {
    expect(remoteMarkup('<h2>Title</h2><p>Body</p>', BASE)).toMatch(/<h\d>Title<\/h\d>/);
    const reply = remoteCommentMarkup('<h2>Title</h2><p>Body &amp; <a href="/x">link</a></p>', BASE);
    expect(reply.html).not.toMatch(/<h\d/);
    expect(reply.html).toContain('href="https://remote.example/x"');
    expect(reply.text).toContain('Body & link');
  });

  it('leaves relative links alone rather than guess when the base is not a URL', () => {
    expect(remoteMarkup('<a href="https://ok.example/">ok</a>', 'not a url')).toContain('href="https://ok.example/"');
  });
});
