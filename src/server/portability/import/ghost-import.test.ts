import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runImport } from './import.service.js';
import { FIXTURES, folderEntries, useImportSite, useTempDir, writeZip } from '../../testing/import-test-support.js';

const GHOST_JSON = path.join(FIXTURES, 'ghost-site/ghost-export.json');
/** A real Ghost 4.1 export (tests/fixtures/README.md): its owner test@ghost.org (role Owner) wrote nothing; ghost-author@example.com (Contributor) wrote all 11 rows. */
const GHOST_41 = path.resolve(import.meta.dirname, '../../../../tests/fixtures/public/ghost-4.1-export.json');
const FIRST_41_POST = '605ac141a2d5a6aa9e101ebd';

type GhostFile = { db: [{ data: Record<string, Array<Record<string, unknown>>> }] };

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
    // Ghost's slugs are their readable addresses here (issue 58), its own where it differs from the title's.
    const slugs = await site.deps.db.selectFrom('blogs').select(['title', 'slug']).orderBy('created_at').execute();
    expect(slugs.slice(0, 3)).toEqual([
      { title: 'Fishing boats of the east coast', slug: 'fishing-boats' },
      { title: 'Coming soon', slug: 'coming-soon' },
      { title: 'A walk round the harbour', slug: 'a-walk-round-the-harbour' },
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

  /** The Ghost 4.1 export with `change` applied to its tables, written to a file of the test's own. */
  const variant = (name: string, change: (data: GhostFile['db'][0]['data']) => void) => {
    const file = JSON.parse(readFileSync(GHOST_41, 'utf8')) as GhostFile;
    change(file.db[0].data);
    const out = path.join(tmp.dir, name);
    writeFileSync(out, JSON.stringify(file));
    return out;
  };
  /** Ghost 4 still wrote the old `author_id` column beside `posts_authors`; Ghost 5 exports have neither for such a post. */
  const withoutAuthor = (data: GhostFile['db'][0]['data']) => {
    data.posts_authors = data.posts_authors!.filter((row) => row.post_id !== FIRST_41_POST);
    delete data.posts!.find((post) => post.id === FIRST_41_POST)!.author_id;
  };
  const authorOfFirst = async () =>
    (await site.deps.db.selectFrom('blogs').innerJoin('imported_items', 'imported_items.blog_id', 'blogs.id').innerJoin('user', 'user.id', 'blogs.user_id').select('user.email').where('imported_items.source_id', '=', FIRST_41_POST).executeTakeFirstOrThrow()).email;

  it("gives a post whose export names no author to the export's Owner, and the report says so", async () => {
    const report = await runImport(site.deps, variant('no-author.json', withoutAuthor));
    expect(report.posts).toEqual({ imported: 7, unchanged: 0, failed: 0, skipped: 4 });
    expect(report.notes).toEqual([{ post: '"Setting up apps and custom integrations"', note: "given to test@ghost.org (the export's Owner): the export names no author for it" }]);
    expect(await authorOfFirst()).toBe('test@ghost.org');
  });

  it('else to its first Administrator; an author who is not among its users counts as none', async () => {
    const file = variant('no-owner.json', (data) => {
      const administrator = data.roles!.find((role) => role.name === 'Administrator')!.id;
      data.roles_users = [...data.roles_users!.filter((row) => row.user_id !== '1'), { id: 'x', role_id: administrator, user_id: '5951f5fca366002ebd5dbef7' }];
      data.posts_authors = data.posts_authors!.map((row) => (row.post_id === FIRST_41_POST ? { ...row, author_id: 'gone' } : row));
    });
    const report = await runImport(site.deps, file);
    expect(report.notes).toEqual([
      { post: '"Setting up apps and custom integrations"', note: "given to ghost-author@example.com (the export's first Administrator): its author gone is not among the export's users" },
    ]);
    expect(await authorOfFirst()).toBe('ghost-author@example.com');
  });

  it('names the post it cannot give to anyone, and --owner takes it', async () => {
    const file = variant('nobody.json', (data) => {
      withoutAuthor(data);
      data.roles_users = data.roles_users!.filter((row) => row.user_id !== '1');
    });
    const dry = await runImport(site.deps, file, { dryRun: true });
    expect(dry.problems).toEqual([
      {
        post: '"Setting up apps and custom integrations" (id 605ac141a2d5a6aa9e101ebd)',
        field: 'author',
        message: 'the export names no author for it, and it has no Owner, Administrator or user to give it to: import with --owner <e-mail>',
      },
    ]);
    const report = await runImport(site.deps, file, { owner: { email: 'me@new.example', name: 'Me' }, ownerNote: 'the moderator who imported it' });
    expect(report.posts.failed).toBe(0);
    expect(report.notes[0]!.note).toBe('given to me@new.example (the moderator who imported it): the export names no author for it');
  });

  it('renders a post Ghost 5 exported as Lexical alone (html null), its images stored from the archive', async () => {
    const file = JSON.parse(readFileSync(GHOST_JSON, 'utf8')) as GhostFile;
    const walk = file.db[0].data.posts!.find((post) => post.title === 'A walk round the harbour')!;
    const t = (text: string, format = 0) => ({ detail: 0, format, mode: 'normal', style: '', text, type: 'extended-text', version: 1 });
    walk.html = null;
    walk.lexical = JSON.stringify({
      root: {
        type: 'root',
        version: 1,
        children: [
          { type: 'paragraph', version: 1, children: [t('The tide was '), t('out', 2), t('.')] },
          { type: 'image', version: 1, src: '__GHOST_URL__/content/images/2024/05/harbour.jpg', alt: 'The harbour at low tide', caption: '', title: '' },
          { type: 'extended-heading', tag: 'h2', version: 1, children: [t('The lighthouse')] },
          { type: 'list', listType: 'bullet', tag: 'ul', version: 1, children: [{ type: 'listitem', version: 1, children: [t('Start at the slipway')] }] },
          { type: 'signup', version: 1, header: 'Sign up for more walks', buttonText: 'Subscribe' },
        ],
      },
    });
    const entries = await folderEntries(path.join(FIXTURES, 'ghost-site'));
    entries['ghost-export.json'] = Buffer.from(JSON.stringify(file));
    const zip = path.join(tmp.dir, 'lexical.ghost.zip');
    await writeZip(zip, entries);
    const report = await runImport(site.deps, zip);
    expect(report.notes).toEqual([{ post: '"A walk round the harbour"', note: 'Lexical cards this site does not know kept as their text: signup' }]);
    const row = (await blogs()).find((each) => each.title === 'A walk round the harbour')!;
    expect(row.body).toMatch(/^The tide was \*out\*\.\n\n!\[The harbour at low tide\]\(\/uploads\/blogs\/harbour-import-[^)]+\.webp\)\n\n## The lighthouse\n\n- {1,3}Start at the slipway\n\nSign up for more walks\n\nSubscribe$/);
    expect(row.html).toContain('<h3>The lighthouse</h3>');
  });
});
