import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runImport, type ImportReport } from './import.service.js';
import { commentsOfBlog, FIXTURES, folderEntries, useImportSite, useTempDir, writeZip } from '../../testing/import-test-support.js';

describe('import of a WordPress export (WXR)', () => {
  const site = useImportSite();
  const tmp = useTempDir('wxr-import-');
  let report: ImportReport;
  beforeAll(async () => {
    const zip = path.join(tmp.dir, 'wordpress.zip');
    await writeZip(zip, await folderEntries(path.join(FIXTURES, 'wordpress-site')));
    report = await runImport(site.deps, zip);
  });

  const blog = (title: string) =>
    site.deps.db
      .selectFrom('blogs')
      .innerJoin('user', 'user.id', 'blogs.user_id')
      .select(['blogs.id', 'blogs.body', 'blogs.html', 'blogs.status', 'blogs.tags', 'blogs.created_at', 'user.email'])
      .where('blogs.title', '=', title)
      .executeTakeFirstOrThrow();

  it('counts what the theme-unit-test-style file holds', () => {
    expect(report.format).toBe('wordpress');
    expect(report.source).toBe('wordpress:https://wp-sample.example');
    // 7 posts, a page, an attachment, a menu item and a trashed post.
    expect(report.posts).toEqual({ imported: 7, unchanged: 0, failed: 1, skipped: 4 });
    expect(report.problems.map((p) => [p.post, p.field, p.message])).toEqual([['(untitled) (wordpress id 1241)', 'title', 'Add a title!']]);
    // Its author was deleted from the WordPress site: the export's first author (lowest wp:author_id) takes it, and the report says so.
    expect(report.notes).toEqual([
      { post: '"Edge Case: Unknown Author"', note: 'given to themedemos@wp-sample.example (the export\'s first author (wp:author_id 2)): its author "someone-deleted" is not among the export\'s <wp:author>s' },
    ]);
    expect(report.comments).toEqual({ imported: 3, unchanged: 0, skipped: 3 });
    expect(report.accountsCreated.sort()).toEqual(['jane.bloggs@wp-sample.example', 'john.doe@wp-sample.example', 'themedemos@wp-sample.example', 'themereviewteam@wp-sample.example']);
    expect(report.images.stored).toBe(1);
    expect(report.images.remote).toEqual(['https://wpthemetestdata.files.wordpress.com/2008/06/dsc04563.jpg']);
  });

  it("keeps WordPress's slugs (wp:post_name) as the readable addresses, and makes the rest from the titles", async () => {
    const slugOf = async (title: string) => (await site.deps.db.selectFrom('blogs').select('slug').where('title', '=', title).executeTakeFirstOrThrow()).slug;
    expect(await slugOf('Markup: HTML Tags and Formatting')).toBe('markup-html-tags-and-formatting');
    // Its wp:post_name is percent-encoded, as WordPress keeps a slug with accents.
    expect(await slugOf('Post Format: Gallery')).toBe('galerie-d-ete');
    expect(await slugOf('Template: Paginated')).toBe('template-paginated');
  });

  it('keeps dates, drafts, categories and tags, and Markdown from content:encoded', async () => {
    const markup = await blog('Markup: HTML Tags and Formatting');
    expect(markup.status).toBe('published');
    expect(markup.created_at.toISOString()).toBe('2013-01-11T20:22:19.000Z');
    expect(markup.tags).toEqual(['markup', 'css', 'html']);
    expect(markup.email).toBe('themereviewteam@wp-sample.example');
    expect(markup.body).toContain('> Stay hungry. Stay foolish.');
    expect(markup.body).toContain('**The strong tag**');
    expect(markup.body).not.toContain('alert(');
    expect((await blog('Template: Draft')).status).toBe('draft');
    expect((await blog('Template: Scheduled')).status).toBe('draft');
    expect((await blog('Template: Paginated')).tags).toEqual([]);
  });

  it('leaves shortcodes and blocks as text, stores the uploaded image, links the remote one', async () => {
    const gallery = await blog('Post Format: Gallery');
    expect(gallery.html).toContain('[gallery columns="2" ids="771,770"]');
    expect(gallery.html).toContain('A caption shortcode.');
    expect(gallery.html).toContain('Galleries come from a shortcode');
    expect(gallery.body).toMatch(/!\[Image Alignment 580x300\]\(\/uploads\/blogs\/image-alignment-580x300-import-/);
    expect(gallery.html).toContain('href="https://wpthemetestdata.files.wordpress.com/2008/06/dsc04563.jpg"');
    expect(gallery.html).toContain('https://www.youtube.com/watch?v=nwQ_rp9jEW8');
  });

  it('imports approved comments with their authors and dates, replies one level deep', async () => {
    const post = await blog('Template: Comments');
    const comments = await commentsOfBlog(site.deps.db, post.id);
    expect(comments.map((c) => [c.author, c.created_at.toISOString(), c.body])).toEqual([
      ['john.doe@wp-sample.example', '2012-09-03T17:18:04.000Z', '**Headings** and *markup* in a comment, with a [link](http://example.org/).'],
      ['jane.bloggs@wp-sample.example', '2012-09-03T17:25:31.000Z', 'Level 2: a reply.'],
      ['john.doe@wp-sample.example', '2012-09-03T17:26:12.000Z', 'Level 3: a reply to the reply.'],
    ]);
    expect(comments[1]!.parent_id).toBe(comments[0]!.id);
    expect(comments[2]!.parent_id).toBe(comments[0]!.id);
  });

  it('a second run changes nothing', async () => {
    const count = async () => ({
      blogs: (await site.deps.db.selectFrom('blogs').select('id').execute()).length,
      comments: (await site.deps.db.selectFrom('comments').select('id').execute()).length,
      users: (await site.deps.db.selectFrom('user').select('id').execute()).length,
    });
    const before = await count();
    const again = await runImport(site.deps, path.join(FIXTURES, 'wordpress-site/theme-unit-test-data.xml'));
    expect(again.posts).toEqual({ imported: 0, unchanged: 7, failed: 1, skipped: 4 });
    expect(again.comments.imported).toBe(0);
    expect(await count()).toEqual(before);
  });
});

describe('a WordPress post whose author is not among the export\'s <wp:author>s', () => {
  const site = useImportSite();
  const tmp = useTempDir('wxr-author-');
  const file = path.join(FIXTURES, 'wordpress-site/theme-unit-test-data.xml');
  const unknownAuthor = (lines: string[]) => lines.filter((each) => each.startsWith('would import\t"Edge Case: Unknown Author"'));

  it('goes to --owner when given (on the /import page, the moderator), and the report says so', async () => {
    const lines: string[] = [];
    const report = await runImport(site.deps, file, { dryRun: true, owner: { email: 'me@new.example', name: 'Me' }, onLine: (each) => lines.push(each) });
    expect(report.notes).toEqual([{ post: '"Edge Case: Unknown Author"', note: 'given to me@new.example (--owner): its author "someone-deleted" is not among the export\'s <wp:author>s' }]);
    expect(unknownAuthor(lines)).toEqual([expect.stringMatching(/ by me@new\.example; /)]);
  });

  it('is named, not imported, when the export lists no <wp:author> at all and no --owner is given', async () => {
    const file = path.join(tmp.dir, 'no-authors.xml');
    const item = '<item><title>Alone</title><dc:creator>gone</dc:creator><content:encoded>Text</content:encoded><wp:post_id>7</wp:post_id><wp:status>publish</wp:status><wp:post_type>post</wp:post_type></item>';
    writeFileSync(file, `<?xml version="1.0"?>\n<rss><channel><link>https://x.example</link>\n${item}\n</channel></rss>\n`);
    const report = await runImport(site.deps, file, { dryRun: true });
    expect(report.problems).toEqual([
      { post: '"Alone" (wp:post_id 7)', field: 'dc:creator', message: 'its author "gone" is not among the export\'s <wp:author>s, and the export lists no <wp:author> to give it to: import with --owner <e-mail>' },
    ]);
  });
});

describe('a WordPress export that is not well-formed XML: read leniently, each repaired line named', () => {
  const site = useImportSite();
  const tmp = useTempDir('wxr-lenient-');
  const WXR = readFileSync(path.join(FIXTURES, 'wordpress-site/theme-unit-test-data.xml'), 'utf8');

  it('an entity used without a DTD is no entity: kept as its text (never expanded), and its line named', async () => {
    const file = path.join(tmp.dir, 'undeclared.xml');
    writeFileSync(file, WXR.replace('<title><![CDATA[Template: Comments]]></title>', '<title>&xxe; &amp; &nbsp;&hellip;</title>'));
    const line = WXR.slice(0, WXR.indexOf('<title><![CDATA[Template: Comments]]></title>')).split('\n').length;
    const lines: string[] = [];
    const report = await runImport(site.deps, file, { dryRun: true, onLine: (each) => lines.push(each) });
    expect(report.repairs).toEqual([`line ${line}: the undefined entity &xxe; kept as text; the HTML entity &nbsp; replaced by its character; the HTML entity &hellip; replaced by its character`]);
    expect(lines.filter((each) => each.startsWith('would import\t"&xxe; & \u00a0\u2026"'))).toHaveLength(1);
  });

  it('a bare "&" and control characters, as real exports hold them, and a file cut short is still refused', async () => {
    const file = path.join(tmp.dir, 'messy.xml');
    const messy = WXR.replace('<link>https://wp-sample.example</link>', '<link>https://wp-sample.example/?a=1&b=2</link>').replace('Template: Comments]]>', 'Template:\u000B Comments]]>');
    writeFileSync(file, messy);
    const report = await runImport(site.deps, file, { dryRun: true });
    expect(report.repairs).toEqual([expect.stringMatching(/^line \d+: a bare "&" escaped$/), expect.stringMatching(/^line \d+: a control character XML forbids \(U\+000B\) removed$/)]);
    expect(report.source).toBe('wordpress:https://wp-sample.example/?a=1&b=2');
    expect(report.posts).toEqual({ imported: 7, unchanged: 0, failed: 1, skipped: 4 });
    const cut = path.join(tmp.dir, 'cut.xml');
    writeFileSync(cut, messy.slice(0, messy.lastIndexOf('<item>')) + '<item><title>half</title></chan');
    await expect(runImport(site.deps, cut)).rejects.toThrow(/cut\.xml, line \d+: not well-formed XML/);
  });
});
