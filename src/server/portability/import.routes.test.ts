import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { sql } from 'kysely';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { BlogPage } from '../../shared/blog-schema.js';
import type { ImportJob } from '../../shared/import-schema.js';
import { buildApp } from '../app.js';
import { multipart } from '../testing/multipart.js';
import { TEST_PUBLIC_URL, useTestApp } from '../testing/test-app.js';
import { randomIp, type TestUser, uniqueEmail, useSignedUpUsers } from '../testing/test-users.js';
import { FIXTURES } from '../testing/import-test-support.js';

const MODERATOR_EMAIL = uniqueEmail('moderator');
const WXR = readFileSync(path.join(FIXTURES, 'wordpress-site/theme-unit-test-data.xml'));

describe('the /import page API', () => {
  const t = useTestApp({ MODERATOR_EMAILS: MODERATOR_EMAIL });
  const { moderator, reader } = useSignedUpUsers(t, ['moderator', 'reader'], { moderator: { email: MODERATOR_EMAIL } });

  const upload = async (user: TestUser | undefined, file: { data: Buffer; filename: string } | undefined, dryRun = false) => {
    const form = await multipart({ dryRun: String(dryRun) }, file && { name: 'file', ...file });
    return t.app.inject({
      method: 'POST',
      url: '/api/imports',
      headers: { origin: TEST_PUBLIC_URL, ...(user ? { cookie: user.cookie } : {}), ...form.headers },
      remoteAddress: randomIp(),
      payload: form.payload,
    });
  };
  const status = (user: TestUser | undefined, id: string) =>
    t.app.inject({ method: 'GET', url: `/api/imports/${id}`, headers: { origin: TEST_PUBLIC_URL, ...(user ? { cookie: user.cookie } : {}) }, remoteAddress: randomIp() });
  /** Starts an import as the moderator and waits for the background work to end, then reads its status as the page does. */
  const importAndWait = async (file: { data: Buffer; filename: string }, dryRun = false) => {
    const started = await upload(moderator, file, dryRun);
    expect(started.statusCode, started.body).toBe(202);
    expect(started.json<ImportJob>()).toMatchObject({ state: 'running', fileName: file.filename, dryRun, report: null, error: null });
    await t.settled();
    const answer = await status(moderator, started.json<ImportJob>().id);
    expect(answer.statusCode, answer.body).toBe(200);
    // The report names authors' e-mails and drafts: no cache on the way may keep it.
    expect(answer.headers['cache-control']).toBe('private, no-store');
    return answer.json<ImportJob>();
  };
  const blogCount = async () => Number((await t.database.db.selectFrom('blogs').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

  it('answers 404 to readers and to the signed out, as the moderation API does, and starts nothing', async () => {
    for (const user of [reader, undefined]) {
      const response = await upload(user, { data: WXR, filename: 'export.xml' });
      expect(response.statusCode, response.body).toBe(404);
      expect(response.json()).toEqual({ error: 'NOT_FOUND', message: 'Not found.' });
    }
    const started = await upload(moderator, { data: WXR, filename: 'export.xml' }, true);
    expect((await status(reader, started.json<ImportJob>().id)).statusCode).toBe(404);
    expect((await status(undefined, started.json<ImportJob>().id)).statusCode).toBe(404);
    await t.settled();
    expect(await blogCount()).toBe(0);
  });

  it('refuses a file of another kind, and a form with no file, at once', async () => {
    const text = await upload(moderator, { data: Buffer.from('hello'), filename: 'notes.txt' });
    expect(text.statusCode).toBe(415);
    expect(text.json()).toEqual({
      error: 'UNSUPPORTED_MEDIA_TYPE',
      message: '"notes.txt" is not an export this page reads: choose a Ghost export (.json or .zip), a WordPress export (.xml or .zip) or a .zip of Markdown files.',
    });
    const none = await upload(moderator, undefined);
    expect(none.statusCode).toBe(400);
    expect(none.json()).toEqual({ error: 'BAD_REQUEST', message: 'Choose an export file to import.' });
  });

  it('reports a malformed export with one clear message naming the file as it was uploaded, and writes nothing', async () => {
    const job = await importAndWait({ data: Buffer.from('<?xml version="1.0"?>\n<rss><channel><item></channel></rss>'), filename: 'broken.xml' });
    expect(job.state).toBe('failed');
    expect(job.report).toBeNull();
    expect(job.error?.error).toBe('IMPORT_REFUSED');
    expect(job.error?.message).toMatch(/^broken\.xml, line 2: not well-formed XML/);
    expect(job.error?.message).not.toContain('import-upload-');
    expect(await blogCount()).toBe(0);
  });

  it('runs a dry run that writes nothing and reports what would happen', async () => {
    const job = await importAndWait({ data: WXR, filename: 'theme-unit-test-data.xml' }, true);
    expect(job.state).toBe('done');
    expect(job.report?.dryRun).toBe(true);
    // The counts of wordpress-import.test.ts, for the same file.
    expect(job.report?.posts).toEqual({ imported: 7, unchanged: 0, failed: 1, skipped: 4 });
    expect(await blogCount()).toBe(0);
  });

  it('imports, with its progress at the end and the report, and the public lists show the posts at once', async () => {
    const before = (await t.app.inject({ method: 'GET', url: '/api/blogs' })).json<BlogPage>();
    expect(before.items).toEqual([]);
    const job = await importAndWait({ data: WXR, filename: 'theme-unit-test-data.xml' });
    expect(job.state).toBe('done');
    expect(job.progress).toEqual({ done: 8, total: 8 });
    expect(job.report).toMatchObject({ format: 'wordpress', dryRun: false, posts: { imported: 7, unchanged: 0, failed: 1, skipped: 4 }, comments: { imported: 3 } });
    expect(job.report?.problems.map((p) => p.field)).toEqual(['title']);
    // The post whose author the export does not list goes to the moderator who imported it.
    expect(job.report?.notes.map((n) => n.note)).toEqual([expect.stringMatching(/^given to \S+ \(the moderator who imported it\): its author "someone-deleted"/)]);
    expect(await blogCount()).toBe(7);
    const after = (await t.app.inject({ method: 'GET', url: '/api/blogs' })).json<BlogPage>();
    expect(after.items.length).toBeGreaterThan(0);
  });

  it('refuses a second import while one is writing (a dry run may run beside it)', async () => {
    // Sent together: whichever starts first is still reading the file (it reads it through twice) when the other arrives.
    const [a, b, dry] = await Promise.all([
      upload(moderator, { data: WXR, filename: 'one.xml' }),
      upload(moderator, { data: WXR, filename: 'one.xml' }),
      upload(moderator, { data: WXR, filename: 'dry.xml' }, true),
    ]);
    await t.settled();
    expect([a.statusCode, b.statusCode].sort()).toEqual([202, 409]);
    expect((a.statusCode === 409 ? a : b).json()).toEqual({
      error: 'IMPORT_RUNNING',
      message: 'The import of one.xml is still running. Wait for its report, then try again (a dry run may run beside it).',
    });
    expect(dry.statusCode, dry.body).toBe(202);
    const after = await upload(moderator, { data: WXR, filename: 'again.xml' });
    expect(after.statusCode, after.body).toBe(202);
    await t.settled();
    expect((await status(moderator, after.json<ImportJob>().id)).json<ImportJob>().report?.posts).toMatchObject({ imported: 0, unchanged: 7 });
  });

  it('an import its process left running is run again by the next start, and any process shows its progress and report', async () => {
    // What a process killed mid-import leaves: the run's row, its file under DATA_DIR, and its job
    // taken, its lease run out (on PGlite a start takes it back at once, lease or not).
    const id = randomUUID();
    const file = path.join(t.dataDir, 'imports', id, 'left.xml');
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, WXR);
    await t.database.db
      .insertInto('import_runs')
      .values({ id, file_name: 'left.xml', file_path: file, dry_run: true, owner: JSON.stringify({ email: MODERATOR_EMAIL, name: 'Moderator' }), progress: JSON.stringify({ done: 3, total: 9 }), started_by: moderator.id })
      .execute();
    // Another process on the same database answers the page with what the row says, mid-way.
    const other = await buildApp({ config: t.config, database: t.database, logger: false });
    try {
      const midway = await other.inject({ method: 'GET', url: `/api/imports/${id}`, headers: { cookie: moderator.cookie } });
      expect(midway.json<ImportJob>()).toMatchObject({ state: 'running', progress: { done: 3, total: 9 }, report: null });
      // Its job, as the dead process left it; the next start takes it back (either process may run it).
      await t.database.db
        .insertInto('queued_jobs')
        .values({ kind: 'import', key: `import:${id}`, payload: JSON.stringify({ runId: id }), state: 'running', attempts: 1, locked_until: sql<Date>`now() - interval '1 second'` })
        .execute();
      await other.ready();
      await expect.poll(async () => (await status(moderator, id)).json<ImportJob>().state, { timeout: 20_000 }).toBe('done');
      const done = (await other.inject({ method: 'GET', url: `/api/imports/${id}`, headers: { cookie: moderator.cookie } })).json<ImportJob>();
      // Seven posts, each found imported by the earlier tests (a dry run writes nothing either way).
      expect(done).toMatchObject({ state: 'done', error: null, report: { dryRun: true } });
      expect(done.report!.posts.imported + done.report!.posts.unchanged).toBe(7);
      expect(existsSync(path.dirname(file))).toBe(false);
    } finally {
      await other.close();
    }
  });

  it('answers 404 for an import it does not know', async () => {
    const response = await status(moderator, 'no-such-import');
    expect(response.statusCode).toBe(404);
  });
});
