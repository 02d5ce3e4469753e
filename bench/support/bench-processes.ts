import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from '../../src/server/db/database.js';
import { migrateToLatest } from '../../src/server/db/migrate.js';
import { adminQuery, withDatabase } from '../../src/server/testing/postgres-admin.js';

export const root = path.resolve(import.meta.dirname, '../..');

export type Cleanups = Array<() => Promise<void> | void>;

/**
 * A fresh database for one benchmark run: on `DATABASE_URL`'s server when set, else on a
 * throwaway cluster (scripts/throwaway-postgres.sh) that the cleanups stop.
 */
export async function benchDatabase(prefix: string, cleanups: Cleanups): Promise<string> {
  let serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) {
    const script = path.join(root, 'scripts/throwaway-postgres.sh');
    const env = execFileSync(script, ['start'], { encoding: 'utf8' });
    const url = /TEST_DATABASE_URL=(\S+)/.exec(env)?.[1];
    const dir = /PG_THROWAWAY_DIR=(\S+)/.exec(env)?.[1];
    if (!url || !dir) throw new Error(`Could not start a throwaway Postgres: ${env.trim()}`);
    console.log(`Started a throwaway Postgres in ${dir}; it is stopped at the end.`);
    cleanups.push(() => {
      execFileSync(script, ['stop', dir]);
    });
    serverUrl = url;
  }
  const server = serverUrl;
  const name = `${prefix}_${randomBytes(4).toString('hex')}`;
  await adminQuery(server, `create database ${name}`);
  cleanups.push(() => adminQuery(server, `drop database if exists ${name} with (force)`));
  return withDatabase(server, name);
}

/** Started with `RATE_LIMIT_SCALE` raised: the load comes from one address, far above any person's rate. */
/**
 * Starts a process. Limits are raised (`RATE_LIMIT_SCALE`) unless `env` says otherwise, since most
 * benchmarks send everything from one address; its log (stdout) is dropped unless `showLog`.
 */
export function start(command: string, args: string[], env: Record<string, string>, { showLog = false } = {}): ChildProcess {
  // BENCH_SERVER_CPUS (a taskset list, say `1`): the servers under test run on those CPUs only.
  const cpus = process.env.BENCH_SERVER_CPUS;
  const child = spawn(cpus ? 'taskset' : command, cpus ? ['-c', cpus, command, ...args] : args, {
    cwd: root,
    env: { ...process.env, RATE_LIMIT_SCALE: '100000', ...env },
    stdio: ['ignore', showLog ? 'inherit' : 'ignore', 'inherit'],
  });
  child.on('exit', (code, signal) => {
    if (code && code !== 0) console.error(`${path.basename(args.at(-1) ?? command)} exited with ${code ?? signal}`);
  });
  return child;
}

export async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
}

export async function waitFor(url: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const response = await fetch(url);
      await response.arrayBuffer();
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${url} did not answer within ${timeoutMs / 1000} s`);
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts the built app (`mainJs`) on `databaseUrl` with a fresh data folder, in production mode
 * with a random auth secret, no AI provider and mail to the outbox, and waits until it is healthy;
 * the cleanups stop it and remove the folder. `env` adds or overrides settings. Answers the base
 * URL to load.
 */
/** The built server's entry under BUILD_DIR (`dist` by default), once sure the build is there: nothing is built here. */
export function builtServerEntry(): string {
  const buildDir = path.resolve(root, process.env.BUILD_DIR ?? 'dist');
  const mainJs = path.join(buildDir, 'server/main.js');
  if (!existsSync(mainJs) || !existsSync(path.join(buildDir, 'web/index.html'))) {
    throw new Error(`No built app in ${buildDir}: run \`BUILD_DIR=${path.relative(root, buildDir) || 'dist'} npm run build\` first.`);
  }
  return mainJs;
}

/** The environment every bench gives the built app: production, on loopback, its own folder and secret. */
export function builtAppEnv(port: number, dataDir: string, databaseUrl: string): Record<string, string> {
  return {
    NODE_ENV: 'production',
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    PUBLIC_URL: `http://localhost:${port}`,
    AUTH_SECRET: randomBytes(32).toString('hex'),
    LOG_LEVEL: 'warn',
  };
}

export async function startBuiltApp(mainJs: string, databaseUrl: string, cleanups: Cleanups, env: Record<string, string> = {}, nodeArgs: string[] = []): Promise<string> {
  return (await startBuiltAppProcess(mainJs, databaseUrl, cleanups, env, nodeArgs)).base;
}

/** `startBuiltApp`, answering its process too (for a bench that reads its CPU time). */
export async function startBuiltAppProcess(mainJs: string, databaseUrl: string, cleanups: Cleanups, env: Record<string, string> = {}, nodeArgs: string[] = []) {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-app-'));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const child = start(process.execPath, [...nodeArgs, mainJs], {
    ...builtAppEnv(port, dataDir, databaseUrl),
    AI_API_KEY: '',
    SMTP_URL: '',
    ...env,
  });
  cleanups.push(() => stop(child));
  const base = `http://127.0.0.1:${port}`;
  await waitFor(`${base}/api/health`);
  return { base, child };
}

/**
 * A fresh migrated database (`benchDatabase`) with one author in it, opened here for seeding: its
 * URL (for the app), the handle (closed by the cleanups) and the author's id.
 */
export async function benchSite(prefix: string, cleanups: Cleanups) {
  const databaseUrl = await benchDatabase(prefix, cleanups);
  const database = await openDatabase({ databaseUrl, dataDir: os.tmpdir() });
  cleanups.push(() => database.close());
  await migrateToLatest(database.db);
  const authorId = randomUUID();
  const now = new Date();
  await database.db
    .insertInto('user')
    .values({ id: authorId, name: 'bench', email: `bench-${authorId}@example.com`, emailVerified: true, image: null, createdAt: now, updatedAt: now })
    .execute();
  return { databaseUrl, database, authorId };
}

/** Starts the bare Fastify server (bench/support/bare-fastify.ts) in its own process; answers its base URL. */
export async function startBareFastify(cleanups: Cleanups): Promise<string> {
  const port = await freePort();
  const bare = start(process.execPath, ['--import', 'tsx', path.join(root, 'bench/support/bare-fastify.ts'), String(port)], {});
  cleanups.push(() => stop(bare));
  const base = `http://127.0.0.1:${port}`;
  await waitFor(`${base}/`);
  return base;
}

/** The p50 and p95 of `samples` requests to `url` one after another (after 20 to warm up), in ms. */
export async function sequentialTimes(url: string, samples: number): Promise<{ p50: number; p95: number }> {
  const times: number[] = [];
  for (let i = 0; i < samples + 20; i++) {
    const started = performance.now();
    const response = await fetch(url);
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`${url} answered ${response.status}`);
    if (i >= 20) times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!;
  return { p50: at(0.5), p95: at(0.95) };
}
