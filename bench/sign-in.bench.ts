/**
 * Sign-in benchmark: requests per second of POST /api/auth/sign-in/email, the event-loop delay,
 * and the latency of GET /api/health while 20 sign-ins run at once.
 *
 *   node --import tsx bench/sign-in.bench.ts            (a temporary PGlite)
 *   DATABASE_URL=postgres://... node --import tsx bench/sign-in.bench.ts
 *
 * The app is built as in production, with the real rate limits: each request comes from its own
 * address (X-Forwarded-For from a trusted proxy, 127.0.0.1) and each user signs in only a few
 * times, so no limit is hit. Users are inserted straight into the database.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { buildApp } from '../src/server/app.js';
import { hashPassword } from '../src/server/auth/password-hashing.js';
import { loadConfig } from '../src/server/config.js';
import { openDatabase } from '../src/server/db/database.js';
import { migrateToLatest } from '../src/server/db/migrate.js';

const CONCURRENCY = 20;
const SIGN_INS = Number(process.env.BENCH_SIGN_INS ?? 200);
const USERS = 50;
const PASSWORD = 'correct horse battery';
const PUBLIC_URL = 'http://localhost:3999';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'sign-in-bench-'));
const databaseUrl = process.env.DATABASE_URL;
const config = loadConfig({
  NODE_ENV: 'production',
  DATA_DIR: dataDir,
  DATABASE_URL: databaseUrl ?? '',
  PUBLIC_URL,
  AUTH_SECRET: randomBytes(32).toString('hex'),
  AUTH_REQUIRE_EMAIL_VERIFICATION: 'false',
  TRUST_PROXY: '127.0.0.1',
  LOG_LEVEL: 'silent',
});
const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir });
await migrateToLatest(database.db);
const app = await buildApp({ config, database, logger: false });
await app.listen({ host: '127.0.0.1', port: 0 });
const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;

const runId = randomBytes(4).toString('hex');
const emails = Array.from({ length: USERS }, (_, i) => `bench-${runId}-${i}@example.com`);
const hash = await hashPassword(PASSWORD);
const now = new Date();
const ids = emails.map(() => randomUUID());
await database.db
  .insertInto('user')
  .values(emails.map((email, i) => ({ id: ids[i]!, name: 'bench', email, emailVerified: true, image: null, createdAt: now, updatedAt: now })))
  .execute();
await database.db
  .insertInto('account')
  .values(ids.map((id) => ({ id: randomUUID(), accountId: id, providerId: 'credential', userId: id, password: hash, accessToken: null, refreshToken: null, idToken: null, accessTokenExpiresAt: null, refreshTokenExpiresAt: null, scope: null, createdAt: now, updatedAt: now })))
  .execute();

let addressCounter = 0;
const nextAddress = () => {
  addressCounter++;
  return `10.${(addressCounter >> 16) & 255}.${(addressCounter >> 8) & 255}.${addressCounter & 255}`;
};

async function signIn(i: number): Promise<number> {
  const started = performance.now();
  const response = await fetch(`${base}/api/auth/sign-in/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: PUBLIC_URL, 'x-forwarded-for': nextAddress() },
    body: JSON.stringify({ email: emails[i % USERS], password: PASSWORD }),
  });
  await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`sign-in answered ${response.status}`);
  return performance.now() - started;
}

async function health(): Promise<number> {
  const started = performance.now();
  const response = await fetch(`${base}/api/health`);
  await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`health answered ${response.status}`);
  return performance.now() - started;
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
};
const ms = (value: number) => `${value.toFixed(1)} ms`;

// Warm-up: JIT, connections, prepared plans.
for (let i = 0; i < 5; i++) await health();
await Promise.all([0, 1, 2, 3].map((i) => signIn(i)));

const idleHealth: number[] = [];
for (let i = 0; i < 50; i++) idleHealth.push(await health());

const loop = monitorEventLoopDelay({ resolution: 10 });
const loadHealth: number[] = [];
const signInLatencies: number[] = [];
let done = false;
loop.enable();
const started = performance.now();
let next = 0;
const workers = Array.from({ length: CONCURRENCY }, async () => {
  while (next < SIGN_INS) {
    const i = next++;
    signInLatencies.push(await signIn(i));
  }
});
const prober = (async () => {
  while (!done) {
    loadHealth.push(await health());
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
})();
await Promise.all(workers);
const elapsed = (performance.now() - started) / 1000;
done = true;
await prober;
loop.disable();

const delay = (value: number) => ms(value / 1e6);
console.log(`Sign-in benchmark (${databaseUrl ? 'Postgres' : 'PGlite'}, Node ${process.version}, ${os.cpus().length} CPUs, UV_THREADPOOL_SIZE=${process.env.UV_THREADPOOL_SIZE ?? '4 (default)'})`);
console.log(`  ${SIGN_INS} sign-ins, ${CONCURRENCY} at once: ${(SIGN_INS / elapsed).toFixed(1)} sign-ins/s`);
console.log(`  sign-in latency: p50 ${ms(percentile(signInLatencies, 50))}, p95 ${ms(percentile(signInLatencies, 95))}, max ${ms(Math.max(...signInLatencies))}`);
console.log(`  event-loop delay under load: p50 ${delay(loop.percentile(50))}, p99 ${delay(loop.percentile(99))}, max ${delay(loop.max)}`);
console.log(`  GET /api/health idle:        p50 ${ms(percentile(idleHealth, 50))}, p95 ${ms(percentile(idleHealth, 95))}, max ${ms(Math.max(...idleHealth))}`);
console.log(`  GET /api/health under load:  p50 ${ms(percentile(loadHealth, 50))}, p95 ${ms(percentile(loadHealth, 95))}, max ${ms(Math.max(...loadHealth))} (${loadHealth.length} requests)`);

await app.close();
if (databaseUrl) {
  await database.db.deleteFrom('user').where('email', 'like', `bench-${runId}-%`).execute();
}
await database.close();
rmSync(dataDir, { recursive: true, force: true });
