import { describe, expect, it } from 'vitest';
import { navigationTargetOf } from './navigation-link.js';
import { navigationLinkSchema } from './site-settings-schema.js';

/** Issue 56: forms a browser (or React Router) reads as another host, or as no address at all. */
const REFUSED = [
  '/\\evil.example/',
  '/\\\\evil.example',
  '\\\\evil.example',
  '/\t/evil.example',
  '/\n/evil.example',
  '/\r/evil.example',
  '/ /evil.example',
  '/\u00a0/evil.example',
  '/\u200e/evil.example',
  '/\u0000',
  '//evil.example',
  '//evil.example/path',
  'javascript:alert(1)',
  'JavaScript:alert(1)',
  'data:text/html,<script>alert(1)</script>',
  'mailto:someone@example.com',
  'ftp://files.example',
  'about',
  'https://',
  'http:evil.example',
  'https:/evil.example',
  '',
];

describe('navigation links (issue 56)', () => {
  it('takes a clean path as a path on this site, and an http(s) address as one elsewhere', () => {
    for (const path of ['/', '/about', '/viewBlog?id=1#top', '/search?searchTerm=a%20b', '/author?id=x&page=2', '/é']) expect(navigationTargetOf(path), path).toEqual({ kind: 'site', path });
    for (const href of ['https://shop.example', 'http://shop.example/a?b=c', 'HTTPS://Shop.Example/']) expect(navigationTargetOf(href), href).toEqual({ kind: 'elsewhere', href });
  });

  it.each(REFUSED)('holds %j inert', (url) => {
    expect(navigationTargetOf(url)).toEqual({ kind: 'inert' });
  });

  it.each(REFUSED.filter((url) => url.trim() !== ''))('refuses to save %j, naming the link', (url) => {
    const parsed = navigationLinkSchema.safeParse({ label: 'Shop', url });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toContain(`The navigation link “Shop” (${JSON.stringify(url.trim())})`);
  });
});
