import { describe, expect, it } from 'vitest';
import { webLinkOrNull } from './remote-links.js';

describe('remote links stay links (issue 42)', () => {
  it.each(['https://social.example/@alice', 'http://blog.example/post?id=1#top'])('keeps %s', (url) => {
    expect(webLinkOrNull(url)).toBe(url);
  });

  it.each([
    'javascript:alert(document.domain)',
    'JavaScript:alert(1)',
    ' javascript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'vbscript:msgbox(1)',
    'file:///etc/passwd',
    'mailto:someone@example.com',
    '//evil.example/x',
    '/relative/path',
    'not a url',
    '',
    null,
    undefined,
  ])('drops %j', (url) => {
    expect(webLinkOrNull(url)).toBeNull();
  });
});
