import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runImport } from './import.service.js';
import { FIXTURES, folderEntries, useImportSite, useTempDir, writeZip } from '../../testing/import-test-support.js';

const GHOST_JSON = path.join(FIXTURES, 'ghost-site/ghost-export.json');

describe('import of a Ghost export', () => {
  const site = useImportSite({ each: true });
  const tmp = useTempDir('ghost-import-', { each: true });

  const blogs = () =>
    site.deps.db
      .selectFrom('blogs')
      .innerJoin('user', 'user.id', 'blogs.user_id')
      .select(['blogs.title', 'blogs.body', 'blogs.html', 'blogs.status', 'blogs.tags', 'blogs.created_at', 'blogs.image_key', 'user.email'])
      .orderBy('blogs.created_at')
      .execute();

  it('imports the zip (JSON and content/images): posts, drafts, dates, tags, authors, images; the page and the broken post are reported', async () => {
    const zip = path.join(tmp.dir, 'harbour-notes.ghost.zip');
    await writeZip(zip, await folderEntries(path.join(FIXTURES, 'ghost-site')));
    const report = await runImport(site.deps, zip, { sourceUrl: 'https://harbour-notes.example' });

    expect(report.format).toBe('ghost');
    expect(report.posts).toEqual({ imported: 5, unchanged: 0, failed: 1, skipped: 1 });
    expect(report.problems).toEqual([{ post: '"A post with a broken date" (id 6650a1f2c3b4a80001a1b006)', field: 'published_at', message: '"last Tuesday" is not a date' }]);
    expect(report.skipped[0]!.reason).toMatch(/a page/);
    expect(report.accountsCreated.sort()).toEqual(['ada@harbour-notes.example', 'grace@harbour-notes.example']);
    expect(report.images.stored).toBe(2);
    expect(report.images.remote.sort()).toEqual(['https://images.unsplash.com/photo-1500530855697-b586d89ba3ee?w=2000', 'https://static.ghost.org/v4.0.0/images/feature-image.jpg']);

    const rows = await blogs();
    expect(rows.map((row) => [row.title, row.status, row.email, row.created_at.toISOString(), row.tags])).toEqual([
      ['Fishing boats of the east coast', 'published', 'grace@harbour-notes.example', '2021-03-01T12:30:00.000Z', ['sea-boats']],
      ['Coming soon', 'published', 'ada@harbour-notes.example', '2024-05-22T10:00:00.000Z', ['getting-started']],
      ['A walk round the harbour', 'published', 'grace@harbour-notes.example', '2024-05-23T09:00:00.000Z', ['walks', 'sea-boats']],
      ['Notes for a winter post', 'draft', 'ada@harbour-notes.example', '2024-05-25T18:00:00.000Z', []],
      // Scheduled in Ghost: a draft here (its time is the author's to set again).
      ['Scheduled: the spring tides', 'draft', 'ada@harbour-notes.example', '2024-05-26T09:00:00.000Z', []],
    ]);
    const walk = rows.find((row) => row.title === 'A walk round the harbour')!;
    // The archive's image is stored through the pipeline and shown from our storage; the feature image is the cover.
    expect(walk.body).toMatch(/!\[The harbour at low tide\]\(\/uploads\/blogs\/harbour-import-\d+-[0-9a-f]+\.webp\)/);
    expect(walk.html).toMatch(/<img[^>]+src="\/uploads\/blogs\/harbour-import-/);
    expect(walk.image_key).toMatch(/^blogs\/cover-import-/);
    expect(walk.body).toContain('## The lighthouse');
    expect(walk.body).toContain('[the first post](https://harbour-notes.example/coming-soon/)');
    expect(walk.body).toContain('```bash\necho "tide tables"\n```');
    // A remote image stays a link.
    expect(walk.html).toContain('href="https://images.unsplash.com/photo-1500530855697-b586d89ba3ee?w=2000"');
    const inline = await site.deps.db.selectFrom('inline_images').select(['key', 'blog_id']).execute();
    expect(inline).toHaveLength(1);
    expect(await site.deps.storage.get(walk.image_key!)).not.toBeNull();

    // The authors can sign in by magic link: an account with no password.
    const accounts = await site.deps.db.selectFrom('account').selectAll().execute();
    expect(accounts).toEqual([]);
  });

  it('runs again and changes nothing; --dry-run writes nothing and says what it would do', async () => {
    const lines: string[] = [];
    const dry = await runImport(site.deps, GHOST_JSON, { dryRun: true, onLine: (line) => lines.push(line) });
    expect(dry.posts).toEqual({ imported: 5, unchanged: 0, failed: 1, skipped: 1 });
    expect(dry.accountsCreated.sort()).toEqual(['ada@harbour-notes.example', 'grace@harbour-notes.example']);
    expect(lines.filter((line) => line.startsWith('would import'))).toHaveLength(5);
    expect(lines.some((line) => line.startsWith('failed\t') && line.includes('published_at'))).toBe(true);
    expect(await blogs()).toEqual([]);
    expect(await site.deps.db.selectFrom('user').select('id').execute()).toEqual([]);

    const first = await runImport(site.deps, GHOST_JSON);
    expect(first.posts.imported).toBe(5);
    // Without the archive the content/images files are missing: left as links and listed.
    expect(first.images.missing).toHaveLength(2);
    const before = await blogs();
    const second = await runImport(site.deps, GHOST_JSON);
    expect(second.posts).toEqual({ imported: 0, unchanged: 5, failed: 1, skipped: 1 });
    expect(second.accountsCreated).toEqual([]);
    expect(await blogs()).toEqual(before);
  });

  it('reads an export without the db wrapper', async () => {
    const wrapped = JSON.parse(readFileSync(GHOST_JSON, 'utf8'));
    const bare = path.join(tmp.dir, 'bare.json');
    writeFileSync(bare, JSON.stringify(wrapped.db[0]));
    const report = await runImport(site.deps, bare);
    expect(report.posts.imported).toBe(5);
  });

  it('refuses a malformed file and a JSON that is not a Ghost export, writing nothing', async () => {
    const broken = path.join(tmp.dir, 'broken.json');
    writeFileSync(broken, readFileSync(GHOST_JSON, 'utf8').slice(0, 2000));
    await expect(runImport(site.deps, broken)).rejects.toThrow(/broken\.json is not JSON \(.*\); nothing was imported/);
    const other = path.join(tmp.dir, 'other.json');
    writeFileSync(other, JSON.stringify({ db: [{ data: { posts: 'none' } }] }));
    await expect(runImport(site.deps, other)).rejects.toThrow(/not a Ghost export: .*posts/);
    expect(await blogs()).toEqual([]);
  });
});
