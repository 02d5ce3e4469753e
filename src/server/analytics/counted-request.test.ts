import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { countedRequest } from './counted-request.js';
import { sourceOf } from './referrer-sources.js';

const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const BLOG = '0a1b2c3d-0000-4000-8000-00000000abcd';

/** A request as the counting hook sees it: its query parsed by Fastify (a repeated name is an array). */
function request(url: string, query: Record<string, string | string[]> = {}, headers: Record<string, string> = {}): FastifyRequest {
  return { method: 'GET', url, query, ip: '10.0.0.1', headers: { 'user-agent': CHROME, ...headers } } as unknown as FastifyRequest;
}

const today = () => '2026-11-29';

describe('countedRequest', () => {
  it("reads the blog's id and the utm parameters from the parsed query, the first of a repeated one", () => {
    const counted = countedRequest(
      request(`/viewBlog?id=${BLOG.toUpperCase()}&utm_source=Mastodon&utm_source=other&utm_campaign=%20Spring%20`, {
        id: BLOG.toUpperCase(),
        utm_source: ['Mastodon', 'other'],
        utm_campaign: ' Spring ',
      }),
      today,
      'blog.example',
    );
    expect(counted).toMatchObject({ type: 'view', kind: 'blog', blogId: BLOG, utmSource: 'mastodon', utmMedium: null, utmCampaign: 'spring', source: 'fediverse' });
  });

  it('counts a page without a query as a direct view, and refuses a blog page without a valid id', () => {
    expect(countedRequest(request('/'), today, 'blog.example')).toMatchObject({ kind: 'home', blogId: null, source: 'direct', utmSource: null, referrerHost: null });
    expect(countedRequest(request('/viewBlog'), today, 'blog.example')).toBeNull();
    expect(countedRequest(request('/viewBlog?id=nope', { id: 'nope' }), today, 'blog.example')).toBeNull();
  });

  it("counts a blog's readable address as a view of that blog, its slug held until the flush finds its id", () => {
    expect(countedRequest(request('/blog/harbour-wall-repairs-2'), today, 'blog.example')).toMatchObject({ kind: 'blog', blogId: '/harbour-wall-repairs-2' });
    for (const url of ['/blog/', '/blog/Not-A-Slug', '/blog/a/b', `/blog/${'a'.repeat(120)}`]) expect(countedRequest(request(url), today, 'blog.example'), url).toBeNull();
  });

  it('takes the referrer as its host, and leaves out the site itself', () => {
    expect(countedRequest(request('/', {}, { referer: 'https://www.Google.com/search?q=x' }), today, 'blog.example')).toMatchObject({ referrerHost: 'google.com', source: 'search' });
    expect(countedRequest(request('/', {}, { referer: 'https://blog.example/tag?name=x' }), today, 'blog.example')).toMatchObject({ referrerHost: null, source: 'direct' });
  });
});

describe('sourceOf', () => {
  it('is direct only with no referrer and no utm source or medium', () => {
    expect(sourceOf(null, { source: null, medium: null })).toBe('direct');
    expect(sourceOf(null, { source: 'newsletter', medium: null })).toBe('email');
    expect(sourceOf(null, { source: null, medium: 'rss' })).toBe('feeds');
    expect(sourceOf(null, { source: 'someone', medium: null })).toBe('direct');
  });
});
