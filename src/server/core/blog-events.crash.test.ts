// test-plan: PGlite only (the servers it starts and kills run on an embedded database of their own)
import { createServer, type Server } from 'node:http';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ImportJob } from '../../shared/import-schema.js';
import { openDatabase } from '../db/database.js';
import { migrateToLatest } from '../db/migrate.js';
import { seedSubscribers } from '../subscriptions/seed-subscribers.js';
import { FIXTURES, folderEntries, writeZip } from '../testing/import-test-support.js';
import { multipart } from '../testing/multipart.js';
import { freePort, migratedDataDir, startServer, waitForHealth } from '../testing/server-process.js';
import { createSignedInUsers } from '../testing/signed-in-users.js';
import { startSmtpServer } from '../testing/smtp-server.js';
import type { TestUser } from '../testing/test-users.js';

const SUBSCRIBERS = 5;
const AUTH_SECRET = 'b'.repeat(64);

/** A follower's inbox on loopback: keeps the type and object of every activity delivered to it. */
async function startInbox(): Promise<{ server: Server; url: string; received: Array<{ type: string; object: string }> }> {
  const received: Array<{ type: string; object: string }> = [];
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      const activity = JSON.parse(body) as { type: string; object: string | { id: string } };
      received.push({ type: activity.type, object: typeof activity.object === 'string' ? activity.object : activity.object.id });
      response.writeHead(202).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/inbox`, received };
}

async function until(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * A writer's change and its follow-ups are one: the blog's event is queued in the writer's own
 * transaction, so a process killed right after the commit, before any follow-up ran, loses none
 * of them, and the next start runs each once. The first process here runs no job at all
 * (`QUEUE_CONCURRENCY=0`): every follow-up of its writes is still to do when it is killed.
 */
describe('kill -9 between a writer’s commit and its follow-ups', () => {
  it('a publish, a suspension and an import: after the restart every follow-up runs, none twice', { timeout: 180_000 }, async () => {
    const smtp = await startSmtpServer();
    const inbox = await startInbox();
    const dataDir = migratedDataDir('blog-crash-events-');
    let writer: TestUser, suspended: TestUser, moderator: TestUser;
    let suspendedBlogs: string[];
    const database = await openDatabase({ dataDir });
    try {
      await migrateToLatest(database.db);
      [writer, suspended, moderator] = (await createSignedInUsers({ db: database.db, authSecret: AUTH_SECRET }, 3)) as [TestUser, TestUser, TestUser];
      await seedSubscribers(database.db, writer.id, SUBSCRIBERS);
      suspendedBlogs = (
        await database.db
          .insertInto('blogs')
          .values(['One', 'Two'].map((title) => ({ user_id: suspended.id, title, body: 'Words.' })))
          .returning('id')
          .execute()
      ).map((row) => row.id);
      await database.db
        .insertInto('federation_followers')
        .values([writer, suspended].map((user, i) => ({ user_id: user.id, actor_id: `http://127.0.0.1/users/reader${i}`, inbox_url: inbox.url, shared_inbox_url: null, handle: `reader${i}@127.0.0.1`, name: 'Reader', follow_id: `http://127.0.0.1/follows/${i}` })))
        .execute();
    } finally {
      await database.close();
    }

    const port = await freePort();
    const env = {
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      DATA_DIR: dataDir,
      AUTH_SECRET,
      SMTP_URL: smtp.url,
      MAIL_SEND_PER_MINUTE: '60000',
      QUEUE_POLL_MS: '100',
      MODERATOR_EMAILS: moderator!.email,
      FEDERATION_ALLOW_PRIVATE_ADDRESS: 'true',
      IMAGE_BACKFILL_ON_START: 'false',
    };
    const base = `http://127.0.0.1:${port}`;
    const send = (user: TestUser, url: string, init: { method?: string; body?: BodyInit; headers?: Record<string, string> }) =>
      fetch(`${base}${url}`, { method: init.method ?? 'POST', body: init.body, headers: { origin: base, cookie: user.cookie, ...init.headers } });

    const first = startServer({ ...env, QUEUE_CONCURRENCY: '0' });
    await waitForHealth(port);
    const blogForm = await multipart({ title: 'News for my readers', blog: 'Fresh.' });
    const created = await send(writer!, '/api/blogs', { body: new Uint8Array(blogForm.payload), headers: blogForm.headers });
    expect(created.status).toBe(201);
    const blogId = ((await created.json()) as { id: string }).id;
    const suspension = await send(moderator!, '/api/moderation/actions', { body: JSON.stringify({ action: 'suspend', userId: suspended!.id }), headers: { 'content-type': 'application/json' } });
    expect(suspension.status).toBe(200);
    // A small import: a zip of Markdown files (the moderator owns the posts that name no author).
    const zip = path.join(dataDir, 'markdown-site.zip');
    await writeZip(zip, await folderEntries(path.join(FIXTURES, 'markdown-site')));
    const importForm = await multipart({ dryRun: 'false' }, { name: 'file', data: readFileSync(zip), filename: 'site.zip', type: 'application/zip' });
    const started = await send(moderator!, '/api/imports', { body: new Uint8Array(importForm.payload), headers: importForm.headers });
    expect(started.status).toBe(202);
    const importId = ((await started.json()) as ImportJob).id;
    // Committed, and nothing done after: the process dies now.
    first.child.kill('SIGKILL');
    await first.exited;
    expect(smtp.received).toHaveLength(0);
    expect(inbox.received).toHaveLength(0);

    const second = startServer(env);
    await waitForHealth(port);
    const importState = async () => ((await (await send(moderator!, `/api/imports/${importId}`, { method: 'GET' })).json()) as ImportJob);
    await until(async () => (await importState()).state === 'done', 'the import');
    await until(() => smtp.received.length >= SUBSCRIBERS, 'the subscribers’ mail');
    await until(() => inbox.received.length >= 3, 'the deliveries');
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
    await smtp.close();
    await new Promise((resolve) => inbox.server.close(resolve));

    // None lost, none twice: one mail per subscriber, a Create for the new blog, a Delete per blog of the suspended author.
    expect(smtp.received.flatMap((mail) => mail.envelopeTo).sort()).toEqual(Array.from({ length: SUBSCRIBERS }, (_, i) => `subscriber-${i + 1}@example.test`).sort());
    expect(inbox.received.filter((activity) => activity.type === 'Create')).toEqual([{ type: 'Create', object: `${base}/viewBlog?id=${blogId}` }]);
    expect(inbox.received.filter((activity) => activity.type === 'Delete').map((activity) => activity.object).sort()).toEqual(suspendedBlogs!.map((id) => `${base}/viewBlog?id=${id}`).sort());
    expect(inbox.received).toHaveLength(3);
    const after = await openDatabase({ dataDir });
    try {
      const run = await after.db.selectFrom('import_runs').select(['state', 'report']).where('id', '=', importId).executeTakeFirstOrThrow();
      expect(run.state).toBe('done');
      expect((run.report as ImportJob['report'])!.posts.imported).toBe(4);
      const jobs = await after.db.selectFrom('queued_jobs').select(['kind', 'state']).where('kind', 'in', ['blog-event', 'blog-federate', 'import']).execute();
      expect(jobs.every((job) => job.state === 'done')).toBe(true);
      // The publish, the two blogs the suspension took from readers, and each public imported post: one event each.
      const events = jobs.filter((job) => job.kind === 'blog-event').length;
      const importedPublic = Number(
        (
          await after.db
            .selectFrom('imported_items')
            .innerJoin('blogs', 'blogs.id', 'imported_items.blog_id')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('blogs.status', '=', 'published')
            .executeTakeFirstOrThrow()
        ).n,
      );
      expect(importedPublic).toBeGreaterThan(0);
      expect(events).toBe(1 + 2 + importedPublic);
    } finally {
      await after.close();
    }
  });
});
