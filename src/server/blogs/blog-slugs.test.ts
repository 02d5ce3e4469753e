import { randomBytes, randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { blogSlugBase } from '../../shared/blog-slug.js';
import { messages } from '../../shared/messages.js';
import type { BlogAddress } from '../../shared/blog-schema.js';
import { blogWrites } from '../testing/blog-writes.js';
import { useTestApp } from '../testing/test-app.js';
import { useSignedUpUsers } from '../testing/test-users.js';

/** A title word no other test uses, so each test's slugs are its own. */
const unique = () => `w${randomBytes(4).toString('hex')}`;

describe('readable addresses (issue 58)', () => {
  const t = useTestApp();
  const users = useSignedUpUsers(t, ['writer', 'other']);
  const writes = blogWrites(t);
  const address = async (slug: string, cookie?: string) => {
    const response = await t.app.inject({ method: 'GET', url: `/api/blogs/by-slug/${encodeURIComponent(slug)}`, headers: cookie ? { cookie } : {} });
    return { status: response.statusCode, body: response.statusCode === 200 ? response.json<BlogAddress>() : undefined };
  };

  it('makes the same slug in the database as src/shared/blog-slug.ts does', async () => {
    const id = randomUUID();
    const titles = [
      'Harbour wall repairs',
      '  Café Ölberg: ÆØÅ & straße — þorn, Łódź, ıi  ',
      'Ünïcödé ÀÉÎÕÜ çñ',
      '日本語のタイトル',
      '!!! ???',
      '',
      '2024',
      'A'.repeat(59) + ' b c',
      `${'word '.repeat(20)}end`,
      'K (Kelvin) and ﬁ ligature ²',
      '--Leading and trailing--',
    ];
    for (const title of titles) {
      const { rows } = await sql<{ slug: string }>`select blog_slug_base(${title}, ${id}::uuid) as slug`.execute(t.database.db);
      expect(rows[0]!.slug, JSON.stringify(title)).toBe(blogSlugBase(title, id));
    }
    expect(blogSlugBase('  Café Ölberg: ÆØÅ & straße — þorn, Łódź, ıi  ', id)).toBe('cafe-olberg-aeoa-strasse-thorn-lodz-ii');
    expect(blogSlugBase('日本語のタイトル', id)).toBe(`blog-${id.slice(0, 8)}`);
    expect(blogSlugBase('A'.repeat(59) + ' b c', id)).toBe('a'.repeat(59));
  });

  it('gives every blog a slug from its title, unique on the site with -2, -3…', async () => {
    const word = unique();
    const first = await writes.create(users.writer, { title: `Harbour ${word} repairs` });
    const second = await writes.create(users.other, { title: `Harbour ${word} repairs!` });
    const third = await writes.create(users.writer, { title: `harbour ${word} REPAIRS` });
    expect([first.slug, second.slug, third.slug]).toEqual([`harbour-${word}-repairs`, `harbour-${word}-repairs-2`, `harbour-${word}-repairs-3`]);
    expect(await address(second.slug)).toEqual({ status: 200, body: { id: second.id, slug: second.slug } });
    expect((await t.app.inject({ method: 'GET', url: `/api/blogs/${first.id}` })).json()).toMatchObject({ slug: first.slug });
    const list = (await t.app.inject({ method: 'GET', url: '/api/blogs?sort=new' })).json<{ items: { id: string; slug: string }[] }>();
    expect(list.items.find((item) => item.id === third.id)?.slug).toBe(third.slug);
  });

  it('gives two blogs of the same title written at once two addresses', async () => {
    const word = unique();
    const blogs = await Promise.all(Array.from({ length: 6 }, () => writes.create(users.writer, { title: `Same ${word}` })));
    expect(new Set(blogs.map((blog) => blog.slug)).size).toBe(6);
    for (const blog of blogs) expect(blog.slug).toMatch(new RegExp(`^same-${word}(-[2-6])?$`));
  });

  it('moves the slug with a new title and keeps the old one naming the blog, until another blog takes it', async () => {
    const word = unique();
    const blog = await writes.create(users.writer, { title: `Old ${word} name` });
    // A title whose slug is the same keeps the address.
    expect((await writes.edit(users.writer, blog.id, { title: `Old ${word} name!` })).slug).toBe(blog.slug);
    const renamed = await writes.edit(users.writer, blog.id, { title: `New ${word} name` });
    expect(renamed.slug).toBe(`new-${word}-name`);
    expect(await address(blog.slug)).toEqual({ status: 200, body: { id: blog.id, slug: renamed.slug } });
    expect(await address(renamed.slug)).toEqual({ status: 200, body: { id: blog.id, slug: renamed.slug } });
    // The old address is free for a new blog, and then it is that blog's.
    const taker = await writes.create(users.other, { title: `Old ${word} name` });
    expect(taker.slug).toBe(blog.slug);
    expect(await address(blog.slug)).toEqual({ status: 200, body: { id: taker.id, slug: blog.slug } });
    // The first blog's current address is never taken.
    expect((await writes.create(users.other, { title: `New ${word} name` })).slug).toBe(`new-${word}-name-2`);
    // Renamed back, the first blog gets its old address again only if it is free: it is not.
    expect((await writes.edit(users.writer, blog.id, { title: `Old ${word} name` })).slug).toBe(`old-${word}-name-2`);
  });

  it('documents the address lookup and the blog answer\'s slug in OpenAPI', async () => {
    const spec = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json<{ paths: Record<string, Record<string, { responses: Record<string, { content: Record<string, { schema: { properties?: Record<string, unknown> } }> }> }>> }>();
    const lookup = spec.paths['/api/blogs/by-slug/{slug}']?.get;
    expect(Object.keys(lookup?.responses['200']?.content['application/json']?.schema.properties ?? {})).toEqual(['id', 'slug']);
    expect(spec.paths['/api/blogs/{id}']?.get?.responses['200']?.content['application/json']?.schema.properties).toHaveProperty('slug');
  });

  it('answers an unknown, malformed or deleted address like an unknown blog', async () => {
    const word = unique();
    const blog = await writes.create(users.writer, { title: `Gone ${word}` });
    await writes.remove(users.writer, blog.id);
    for (const slug of [blog.slug, `nothing-${word}`, 'Not A Slug', 'a'.repeat(100)]) {
      const response = await t.app.inject({ method: 'GET', url: `/api/blogs/by-slug/${encodeURIComponent(slug)}` });
      expect(response.statusCode, slug).toBe(404);
      expect(response.json()).toMatchObject({ message: messages.blogDoesNotExist });
    }
    expect(await t.database.db.selectFrom('blog_slugs').select('slug').where('slug', '=', blog.slug).execute()).toEqual([]);
  });

  it('names a draft to its author only, and keeps no old addresses of a draft', async () => {
    const word = unique();
    const draft = await writes.create(users.writer, { title: `Dr ${word}`, status: 'draft' });
    expect((await address(draft.slug)).status).toBe(404);
    expect((await address(draft.slug, users.other.cookie)).status).toBe(404);
    expect((await address(draft.slug, users.writer.cookie)).body).toEqual({ id: draft.id, slug: draft.slug });
    // Autosave renames a draft as its title is typed: none of those addresses is kept.
    await writes.edit(users.writer, draft.id, { title: `Draft ${word}`, status: 'draft' });
    const published = await writes.edit(users.writer, draft.id, { title: `Draft ${word} done`, status: 'published' });
    const kept = await t.database.db.selectFrom('blog_slugs').select('slug').where('blog_id', '=', draft.id).execute();
    expect(kept).toEqual([{ slug: published.slug }]);
    expect((await address(published.slug)).status).toBe(200);
  });
});
