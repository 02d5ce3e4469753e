import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, inject } from 'vitest';
import { buildApp, type App, type BuildAppOptions } from '../app.js';
import { hashPassword } from '../auth/password-hashing.js';
import { loadConfig, type Config } from '../config.js';
import { openDatabase, type DatabaseHandle } from '../db/database.js';
import { readOutbox, type OutboxMail } from './outbox-reader.js';
import { takePGlite } from './pglite-pool.js';
import { adminQuery, withDatabase } from './postgres-admin.js';
import './provided-context.js';
import { dueBefore } from '../queue/job-queue.js';

export const TEST_PUBLIC_URL = 'http://localhost:3999';

export interface TestApp {
  app: App;
  config: Config;
  database: DatabaseHandle;
  dataDir: string;
  /** Every e-mail the app wrote to its outbox, oldest first, parsed. */
  outbox(): Promise<OutboxMail[]>;
  /** Resolves once the work requests left running is done and the durable queue has no due job left (mail sent). */
  settled(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A fresh app on a fresh, migrated database (a copy of the run's template: PGlite, or
 * Postgres when the project says so), with its own DATA_DIR and mail outbox.
 */
const hashes = new Map<string, Promise<string>>();

/**
 * A test app's password hashing: the real scrypt hash (`password-hashing.ts`, the production
 * parameters), computed once per password in a worker and reused, salt included. Hundreds of
 * sign-ups in a run use the same few passwords, and each hash is about 150 ms of a core
 * (docs/testing.md): a quarter of the API tests' CPU. Signing in still verifies the stored hash
 * with scrypt. `scryptEachPassword` gives an app production's hashing, a new salt every time.
 */
function hashOncePerPassword(password: string): Promise<string> {
  let hash = hashes.get(password);
  if (!hash) {
    hash = hashPassword(password);
    hashes.set(password, hash);
    // A failed hash is not kept.
    hash.catch(() => hashes.delete(password));
  }
  return hash;
}

export async function createTestApp(
  env: Record<string, string> = {},
  options: Pick<BuildAppOptions, 'pages' | 'mailer' | 'now' | 'logger'> & { withoutOwner?: boolean; scryptEachPassword?: boolean } = {},
): Promise<TestApp> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'blog-test-'));
  const database = await openTestDatabase(dataDir);
  // The site's first account is its owner (issue 44), who may edit anyone's blogs: a test's own
  // users sign up on a site whose owner already exists, as authors, as the spec's users are.
  if (!options.withoutOwner) await insertSiteOwner(database.db);
  const { withoutOwner: _, scryptEachPassword, ...buildOptions } = options;
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    PUBLIC_URL: TEST_PUBLIC_URL,
    AUTH_SECRET: randomBytes(32).toString('hex'),
    AUTH_REQUIRE_EMAIL_VERIFICATION: 'false',
    LOG_LEVEL: 'silent',
    // Many tests write rows straight into the database, which no cache can hear about; the cache's
    // own tests (and the end-to-end suite, through the real server) turn it on.
    RESPONSE_CACHE_MB: '0',
    ...env,
  });
  const app = await buildApp({ config, database, logger: false, hashPassword: scryptEachPassword ? undefined : hashOncePerPassword, ...buildOptions });
  await app.ready();
  return {
    app,
    config,
    database,
    dataDir,
    outbox: () => readOutbox(path.join(dataDir, 'mail')),
    settled: () => queueSettled(app, database),
    async close() {
      await app.close();
      await database.release();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * `createTestApp` for the enclosing describe block: the handle it returns is filled in by a
 * beforeAll hook and closed by an afterAll hook, so it may be read only inside tests and hooks.
 */
export function useTestApp(env?: Record<string, string>, options?: Parameters<typeof createTestApp>[1]): TestApp {
  const handle = {} as TestApp;
  let created: TestApp | undefined;
  beforeAll(async () => {
    created = await createTestApp(env, options);
    Object.assign(handle, created);
  });
  afterAll(() => created?.close());
  return handle;
}

/** The address of the owner account every test app has unless asked otherwise (`withoutOwner`). */
export const TEST_OWNER_EMAIL = 'site-owner@example.com';

async function insertSiteOwner(db: DatabaseHandle['db']): Promise<void> {
  const now = new Date();
  await db
    .insertInto('user')
    .values({ id: randomUUID(), name: 'Site owner', email: TEST_OWNER_EMAIL, emailVerified: true, image: null, createdAt: now, updatedAt: now, role: 'owner' })
    .execute();
}

/** Waits (polling, up to 20 s) until no job is due or running: what was queued has been done. */
export async function queueSettled(app: App, database: DatabaseHandle): Promise<void> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const jobs = await database.db
      .selectFrom('queued_jobs')
      .select((eb) => [eb.fn.countAll<string>().filterWhere('state', '=', 'running').as('running'), eb.fn.min('run_at').filterWhere('state', '=', 'pending').as('firstPending')])
      .executeTakeFirstOrThrow();
    // "Due" by the clock read after the answer, not before the query: a query that waited for a
    // connection may see a job queued meanwhile (by one that just finished), due by then.
    const due = Number(jobs.running) + (jobs.firstPending !== null && new Date(jobs.firstPending) < dueBefore(new Date()) ? 1 : 0);
    if (due === 0 && app.queue.running() === 0) return;
    if (Date.now() > deadline) throw new Error(`the queue did not settle in 20 s (${jobs.running} jobs running, the first pending due at ${String(jobs.firstPending)})`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** The test app's database, and how it ends: a Postgres copy is dropped, a PGlite goes back to the worker's pool. */
async function openTestDatabase(dataDir: string): Promise<DatabaseHandle & { release(): Promise<void> }> {
  if (process.env.TEST_DB_KIND === 'postgres') {
    const url = process.env.TEST_DATABASE_URL!;
    const name = `blog_test_${randomBytes(6).toString('hex')}`;
    await adminQuery(url, `create database ${name} template ${inject('postgresTemplateDb')}`);
    const handle = await openDatabase({ databaseUrl: withDatabase(url, name), dataDir });
    return {
      ...handle,
      async release() {
        await handle.close();
        await adminQuery(url, `drop database if exists ${name} with (force)`);
      },
    };
  }
  const pooled = await takePGlite();
  const handle = await openDatabase({ dataDir, inMemory: true, pglite: pooled.pglite });
  return {
    ...handle,
    listen: async (channel, onNotice) => {
      pooled.listening(channel);
      await handle.listen!(channel, onNotice);
    },
    release: () => pooled.giveBack(),
  };
}

/**
 * Postgres only: a second app on the test app's database, with a pool and queue workers of its
 * own, as a second process on the same server has.
 */
export async function startSecondApp(t: TestApp, options: Pick<BuildAppOptions, 'mailer' | 'now'> = {}) {
  const database = await openDatabase({ databaseUrl: t.database.url!, dataDir: t.dataDir });
  const app = await buildApp({ config: t.config, database, logger: false, ...options });
  await app.ready();
  return {
    app,
    database,
    async close() {
      await app.close();
      await database.close();
    },
  };
}
