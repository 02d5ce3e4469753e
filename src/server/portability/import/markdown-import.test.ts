import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runImport } from './import.service.js';
import { FIXTURES, folderEntries, useImportSite, useTempDir, writeZip } from '../../testing/import-test-support.js';

const SITE = path.join(FIXTURES, 'markdown-site');
const owner = { email: 'owner@example.com', name: 'Owner' };

describe('import of Markdown files with front matter', () => {
  const site = useImportSite();
  const tmp = useTempDir('md-import-');

  it('asks for an owner when the front matter names no author, naming the file and field', async () => {
    const report = await runImport(site.deps, SITE, { dryRun: true });
    expect(report.problems.find((p) => p.post === '_posts/2024-02-03-first-light.md')).toEqual({
      post: '_posts/2024-02-03-first-light.md',
      field: 'author_email',
      message: 'no author: give the front matter an author_email, or run the import with --owner <e-mail>',
    });
  });

  it('imports a zip of them: titles, dates, drafts, tags, images relative to the file', async () => {
    const zip = path.join(tmp.dir, 'site.zip');
    await writeZip(zip, await folderEntries(SITE));
    const report = await runImport(site.deps, zip, { owner });
    expect(report.posts).toEqual({ imported: 4, unchanged: 0, failed: 1, skipped: 0 });
    expect(report.problems).toEqual([{ post: '"A post whose date is broken" (markdown id _posts/2024-03-01-bad-date.md)', field: 'date', message: '"the day after tomorrow" is not a date' }].map((p) => ({ ...p, post: expect.stringContaining('2024-03-01-bad-date.md') })));
    expect(report.images).toMatchObject({ stored: 1, remote: ['https://example.org/pic.jpg'] });
    const rows = await site.deps.db
      .selectFrom('blogs')
      .innerJoin('user', 'user.id', 'blogs.user_id')
      .select(['blogs.title', 'blogs.status', 'blogs.tags', 'blogs.created_at', 'blogs.body', 'user.email'])
      .orderBy('blogs.title')
      .execute();
    expect(rows.map((r) => [r.title, r.status, r.tags, r.email])).toEqual([
      ['A guest post', 'published', ['guest', 'eleventy'], 'guest@markdown-site.example'],
      ["An idea in Jekyll's drafts folder", 'draft', [], 'owner@example.com'],
      ['First light', 'published', ['mornings', 'garden', 'notes'], 'owner@example.com'],
      ['Hugo style, still a draft', 'draft', ['hugo'], 'owner@example.com'],
    ]);
    const first = rows.find((r) => r.title === 'First light')!;
    expect(first.created_at.toISOString()).toBe('2024-02-03T07:30:00.000Z');
    expect(first.body).toMatch(/!\[The garden\]\(\/uploads\/blogs\/garden-import-[^ ]+ "Garden"\)/);
    const again = await runImport(site.deps, zip, { owner });
    expect(again.posts.unchanged).toBe(4);
    expect(again.posts.imported).toBe(0);
    // Each public post imported is one event (the drafts none, the second run none): the caches
    // hear of them; mail and the fediverse do not (no announcement is queued once they have run).
    await site.t.settled();
    const jobs = await site.deps.db.selectFrom('queued_jobs').select(['kind', 'state']).where('kind', 'in', ['blog-event', 'blog-published', 'blog-federate']).execute();
    expect(jobs).toEqual([
      { kind: 'blog-event', state: 'done' },
      { kind: 'blog-event', state: 'done' },
    ]);
  });
});
