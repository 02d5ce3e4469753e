import { statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBlog } from '../../blogs/blogs.service.js';
import { createComment } from '../../comments/comments.service.js';
import { uploadInlineImage } from '../../core/inline-images.js';
import { solidPng } from '../../testing/image-fixtures.js';
import { signUpUser } from '../../testing/test-users.js';
import { commentsOfBlog, importSite, useImportSite, useTempDir } from '../../testing/import-test-support.js';
import { runImport } from '../import/import.service.js';
import { openImportArchive } from '../import/import-archive.js';
import type { ImportDeps } from '../import/import.service.js';
import { EXPORT_JSON_NAME, writeSiteExport } from './site-export.service.js';

/** What a site holds that an export must carry, with our own ids and image keys taken out. */
async function siteContent(deps: ImportDeps) {
  const blogs = await deps.db
    .selectFrom('blogs')
    .innerJoin('user', 'user.id', 'blogs.user_id')
    .select(['blogs.id', 'blogs.title', 'blogs.body', 'blogs.status', 'blogs.tags', 'blogs.created_at', 'blogs.image_key', 'user.email'])
    .orderBy('blogs.title')
    .execute();
  const result = [];
  for (const blog of blogs) {
    const comments = await commentsOfBlog(deps.db, blog.id);
    const position = new Map(comments.map((c, i) => [c.id, i]));
    const cover = blog.image_key ? await sharp((await deps.storage.get(blog.image_key))!).metadata() : null;
    const inline = await deps.db.selectFrom('inline_images').select(['width', 'height']).where('blog_id', '=', blog.id).execute();
    result.push({
      title: blog.title,
      body: blog.body.replace(/\/uploads\/blogs\/[^)\s]+/g, '<image>'),
      status: blog.status,
      tags: blog.tags,
      createdAt: blog.created_at.toISOString(),
      author: blog.email,
      cover: cover && { width: cover.width, height: cover.height },
      inline,
      comments: comments.map((c) => ({ author: c.author, body: c.body, at: c.created_at.toISOString(), replyTo: c.parent_id === null ? null : position.get(c.parent_id) })),
    });
  }
  return result;
}

describe('npm run export: a zip Ghost imports, and ours too', () => {
  const source = useImportSite();
  const tmp = useTempDir('export-');
  let target: Awaited<ReturnType<typeof importSite>> | undefined;
  let zip: string;
  beforeAll(async () => {
    const ada = await signUpUser(source.t.app, { email: 'ada@example.com' });
    const bob = await signUpUser(source.t.app, { email: 'bob@example.com' });
    const deps = source.deps;
    const inline = await uploadInlineImage(deps, ada.id, { filename: 'chart.png', data: await solidPng(120, 80, '#aa3355') });
    const walk = await createBlog(deps, ada.id, {
      fields: { title: 'A walk', blog: `Out by the sea.\n\n![A chart](${inline.url})\n\n- one\n- two`, tags: 'walks, sea' },
      image: { filename: 'cover.png', data: await solidPng(300, 200) },
    });
    await createBlog(deps, ada.id, { fields: { title: 'Half done', blog: 'Not ready', status: 'draft' } });
    const bobs = await createBlog(deps, bob.id, { fields: { title: "Bob's post", blog: 'Hello **world**', tags: 'hello' } });
    await deps.db.updateTable('blogs').set({ created_at: new Date('2023-04-05T06:07:08Z') }).where('id', '=', walk.id).execute();
    const first = await createComment(deps, bob.id, walk.id, { body: 'Lovely *walk*' });
    await createComment(deps, ada.id, walk.id, { body: 'Thanks!', parentId: first.comment.id });
    await createComment(deps, ada.id, bobs.id, { body: 'Welcome' });
    zip = path.join(tmp.dir, 'site.zip');
  });
  afterAll(() => target?.close());

  it('writes the Ghost JSON (posts as HTML, a Markdown copy, users, tags, comments) and the images, for the owner only', async () => {
    // Over a file anyone could read: the export still ends readable by its owner alone (drafts and e-mails are inside).
    writeFileSync(zip, 'an old export', { mode: 0o644 });
    const summary = await writeSiteExport(source.deps, zip);
    expect(statSync(zip).mode & 0o777).toBe(0o600);
    expect(summary).toEqual({ posts: 3, users: 2, tags: 3, comments: 3, images: 2, missingImages: [] });
    const archive = await openImportArchive(zip);
    try {
      expect(archive.names.filter((name) => name.startsWith('content/images/blogs/'))).toHaveLength(2);
      const json = JSON.parse((await archive.read(EXPORT_JSON_NAME)).toString('utf8'));
      const data = json.db[0].data;
      expect(json.db[0].meta.version).toMatch(/^5\./);
      const walk = data.posts.find((post: { title: string }) => post.title === 'A walk');
      expect(walk).toMatchObject({ status: 'published', type: 'post', published_at: '2023-04-05T06:07:08.000Z', mobiledoc: null, lexical: null });
      expect(walk.html).toContain('<img src="__GHOST_URL__/content/images/blogs/chart-');
      expect(walk.feature_image).toMatch(/^__GHOST_URL__\/content\/images\/blogs\/cover-/);
      expect(data.posts.find((post: { title: string }) => post.title === 'Half done')).toMatchObject({ status: 'draft', published_at: null });
      expect(data.users.map((user: { email: string }) => user.email).sort()).toEqual(['ada@example.com', 'bob@example.com']);
      expect(data.tags.map((tag: { slug: string }) => tag.slug).sort()).toEqual(['hello', 'sea', 'walks']);
      expect(data.posts_tags).toHaveLength(3);
      expect(data.blogging_site_markdown.find((row: { post_id: string }) => row.post_id === walk.id).markdown).toContain('![A chart](__GHOST_URL__/content/images/blogs/chart-');
      expect(data.blogging_site_comments).toHaveLength(3);
    } finally {
      archive.close();
    }
  });

  it('export → import into a fresh site: the same posts, tags, authors, dates, comments and images', async () => {
    target = await importSite();
    const report = await runImport(target.deps, zip);
    expect(report.problems).toEqual([]);
    expect(report.posts).toMatchObject({ imported: 3, failed: 0 });
    expect(report.comments.imported).toBe(3);
    expect(report.images).toMatchObject({ stored: 2, remote: [], missing: [], failed: [] });
    const before = await siteContent(source.deps);
    const after = await siteContent(target.deps);
    expect(after).toEqual(before);
    expect(after.find((blog) => blog.title === 'A walk')).toMatchObject({ cover: { width: 300, height: 200 }, inline: [{ width: 120, height: 80 }] });
  });
});
