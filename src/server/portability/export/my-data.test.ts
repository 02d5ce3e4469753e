import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createBlog } from '../../blogs/blogs.service.js';
import { createComment } from '../../comments/comments.service.js';
import { uploadInlineImage } from '../../core/inline-images.js';
import { solidPng } from '../../testing/image-fixtures.js';
import { signUpUser } from '../../testing/test-users.js';
import { castVote } from '../../votes/votes.service.js';
import { openImportArchive } from '../import/import-archive.js';
import { splitFrontMatter } from '../import/markdown-reader.js';
import { useImportSite, useTempDir } from '../../testing/import-test-support.js';

describe("GET /api/account/my-data.zip ('Download my data')", () => {
  const site = useImportSite();
  const tmp = useTempDir('my-data-');

  it('answers 401 signed out, kept by no cache either', async () => {
    const response = await site.t.app.inject({ method: 'GET', url: '/api/account/my-data.zip' });
    expect(response.statusCode).toBe(401);
    expect(response.headers['cache-control']).toBe('private, no-store');
  });

  it("gives the reader their own blogs (Markdown, front matter), images, comments and votes, nobody else's", async () => {
    const ada = await signUpUser(site.t.app, { email: 'ada@example.com' });
    const bob = await signUpUser(site.t.app, { email: 'bob@example.com' });
    const inline = await uploadInlineImage(site.deps, ada.id, { filename: 'chart.png', data: await solidPng(30, 20) });
    const mine = await createBlog(site.deps, ada.id, {
      fields: { title: 'My walk', blog: `Out.\n\n![chart](${inline.url})`, tags: 'walks' },
      image: { filename: 'cover.png', data: await solidPng(60, 40) },
    });
    await createBlog(site.deps, ada.id, { fields: { title: 'Unfinished', blog: 'x', status: 'draft' } });
    const theirs = await createBlog(site.deps, bob.id, { fields: { title: "Bob's", blog: 'Not yours' } });
    await createComment(site.deps, ada.id, theirs.id, { body: 'Hello Bob' });
    await createComment(site.deps, bob.id, mine.id, { body: "Bob's comment" });
    await castVote(site.deps.db, { blogId: theirs.id, userId: ada.id, direction: 'up' });

    const response = await site.t.app.inject({ method: 'GET', url: '/api/account/my-data.zip', headers: { cookie: ada.cookie } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/zip');
    // The reader's drafts and e-mail: no cache on the way may keep it.
    expect(response.headers['cache-control']).toBe('private, no-store');
    expect(response.headers['content-disposition']).toMatch(/^attachment; filename="my-data-\d{4}-\d\d-\d\d\.zip"$/);
    const file = path.join(tmp.dir, 'mine.zip');
    writeFileSync(file, response.rawPayload);
    const zip = await openImportArchive(file);
    try {
      expect(zip.names.filter((name) => name.startsWith('blogs/')).sort()).toEqual(['blogs/my-walk.md', 'blogs/unfinished.md']);
      const walk = splitFrontMatter((await zip.read('blogs/my-walk.md')).toString('utf8'));
      expect(walk.data).toMatchObject({ title: 'My walk', draft: false, tags: ['walks'], id: mine.id });
      expect(walk.data.image).toMatch(/^\.\.\/images\/blogs\/cover-/);
      expect(walk.body).toMatch(/!\[chart\]\(\.\.\/images\/blogs\/chart-[^)]+\.webp\)/);
      expect(splitFrontMatter((await zip.read('blogs/unfinished.md')).toString('utf8')).data.draft).toBe(true);
      expect(zip.names.filter((name) => name.startsWith('images/'))).toHaveLength(2);
      const comments = JSON.parse((await zip.read('comments.json')).toString('utf8'));
      expect(comments.map((c: { body: string; blogTitle: string }) => [c.body, c.blogTitle])).toEqual([['Hello Bob', "Bob's"]]);
      const votes = JSON.parse((await zip.read('votes.json')).toString('utf8'));
      expect(votes.map((v: { direction: string; blogTitle: string }) => [v.direction, v.blogTitle])).toEqual([['up', "Bob's"]]);
      expect(JSON.parse((await zip.read('account.json')).toString('utf8')).email).toBe('ada@example.com');
    } finally {
      zip.close();
    }
  });
});
