/**
 * The home list's 'Hot' order at 10,000 blogs in Postgres: `GET /?sort=hot` (the server-rendered
 * page) and `GET /api/blogs?sort=hot`, page 1 against page 1,000, beside a bare Fastify route
 * returning a constant JSON, measured in the same run:
 *  - requests per second and p99 (autocannon, 10 connections, ~5 s each);
 *  - p50/p95 of 200 sequential requests each;
 *  - the database's own time for the page's ids (EXPLAIN ANALYZE) and whether it reads `blogs_hot_idx`.
 *
 *   BUILD_DIR=dist node --import tsx bench/hot-order.bench.ts      (needs `npm run build` first)
 *   DATABASE_URL=postgres://... node --import tsx bench/hot-order.bench.ts
 *
 * The app runs with the response cache off (RESPONSE_CACHE_MB=0): with it on, every repeat of a
 * URL is a memory read and the order's query would not be measured at all.
 */
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import autocannon from 'autocannon';
import { type Kysely, sql } from 'kysely';
import { selectPageIds } from '../src/server/blogs/blogs.repository.js';
import { openDatabase } from '../src/server/db/database.js';
import { migrateToLatest } from '../src/server/db/migrate.js';
import type { Database } from '../src/server/db/schema.js';
import { benchDatabase, builtServerEntry, sequentialTimes, startBareFastify, startBuiltApp } from './support/bench-processes.js';

const BLOGS = 10_000;
const PAGE_SIZE = 5;
const DURATION_SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = 10;
const SAMPLES = 200;

await main();

async function main() {
  const mainJs = builtServerEntry();

  const cleanups: Array<() => Promise<void> | void> = [];
  try {
    const databaseUrl = await benchDatabase('hot_bench', cleanups);
    const database = await openDatabase({ databaseUrl, dataDir: os.tmpdir() });
    cleanups.push(() => database.close());
    await migrateToLatest(database.db);
    await seed(database.db);
    const plans = { page1: await plan(database.db, 0), page1000: await plan(database.db, 999 * PAGE_SIZE) };

    const appBase = await startBuiltApp(mainJs, databaseUrl, cleanups, { RESPONSE_CACHE_MB: '0' });
    const bareBase = await startBareFastify(cleanups);

    const deep = (await (await fetch(`${appBase}/api/blogs?sort=hot&page=1000`)).json()) as { items: unknown[]; hasMore: boolean };
    if (deep.items.length !== PAGE_SIZE || !deep.hasMore) throw new Error('Page 1,000 of the hot order does not hold 5 blogs with more after it.');

    const runs = [
      await load('bare Fastify constant JSON', `${bareBase}/`),
      await load('GET /?sort=hot (page HTML)', `${appBase}/?sort=hot`),
      await load('GET /?sort=hot&page=1000 (page HTML)', `${appBase}/?sort=hot&page=1000`),
      await load('GET /api/blogs?sort=hot&page=1', `${appBase}/api/blogs?sort=hot&page=1`),
      await load('GET /api/blogs?sort=hot&page=1000', `${appBase}/api/blogs?sort=hot&page=1000`),
    ];
    const sequential = [
      ['/?sort=hot', await sequentialTimes(`${appBase}/?sort=hot`, SAMPLES)],
      ['/?sort=hot&page=1000', await sequentialTimes(`${appBase}/?sort=hot&page=1000`, SAMPLES)],
      ['/api/blogs?sort=hot&page=1', await sequentialTimes(`${appBase}/api/blogs?sort=hot&page=1`, SAMPLES)],
      ['/api/blogs?sort=hot&page=1000', await sequentialTimes(`${appBase}/api/blogs?sort=hot&page=1000`, SAMPLES)],
    ] as const;

    const bareRate = runs[0]!.requestsPerSecond;
    console.log(`
# Hot order benchmark (bench/hot-order.bench.ts)

Run ${new Date().toISOString()} on ${os.cpus().length} CPU(s), load average ${os.loadavg().map((l) => l.toFixed(1)).join(' / ')}, Node ${process.version},
Postgres with ${BLOGS.toLocaleString('en')} blogs, response cache off; ${CONNECTIONS} connections, ${DURATION_SECONDS} s per target.

| target | req/s | p50 ms | p99 ms | vs bare |
|---|---|---|---|---|
${runs.map((r) => `| ${r.name} | ${r.requestsPerSecond.toFixed(0)} | ${r.p50} | ${r.p99} | ${((r.requestsPerSecond / bareRate) * 100).toFixed(1)} % |`).join('\n')}

| URL (${SAMPLES} sequential requests) | p50 ms | p95 ms |
|---|---|---|
${sequential.map(([url, t]) => `| ${url} | ${t.p50.toFixed(2)} | ${t.p95.toFixed(2)} |`).join('\n')}

Page ids in the database (EXPLAIN ANALYZE): page 1 ${plans.page1.execution}, page 1,000 ${plans.page1000.execution};
reads blogs_hot_idx: ${plans.page1.usesIndex && plans.page1000.usesIndex ? 'yes' : 'NO'}; sorts: ${plans.page1.sorts || plans.page1000.sorts ? 'YES' : 'no'}.`);
  } finally {
    for (const step of cleanups.reverse()) await step();
  }
}

interface LoadResult {
  name: string;
  requestsPerSecond: number;
  p50: number;
  p99: number;
}

async function load(name: string, url: string): Promise<LoadResult> {
  await autocannon({ url, connections: CONNECTIONS, duration: 1 });
  const result = await autocannon({ url, connections: CONNECTIONS, duration: DURATION_SECONDS });
  if (result.errors + result.timeouts || result.non2xx) throw new Error(`${name}: ${result.errors + result.timeouts} errors and ${result.non2xx} non-2xx answers`);
  console.log(`${name}: ${result.requests.average.toFixed(0)} req/s, p99 ${result.latency.p99} ms`);
  return { name, requestsPerSecond: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 };
}

/** 10,000 blogs in one statement, spread over ratings and a month of dates, then what autovacuum would do. */
async function seed(db: Kysely<Database>) {
  const userId = randomUUID();
  const now = new Date();
  await db.insertInto('user').values({ id: userId, name: 'bench', email: `bench-${userId}@example.com`, emailVerified: true, image: null, createdAt: now, updatedAt: now }).execute();
  await sql`
    insert into blogs (user_id, title, body, upvotes, downvotes, created_at, updated_at)
    select ${userId}, 'Benchmark blog number ' || g, repeat('Some words of a blog body. ', 20),
           (g * 7919) % 230, (g * 104729) % 70, now() - g * interval '4 minutes', now() - g * interval '4 minutes'
    from generate_series(1, ${BLOGS}) as g`.execute(db);
  for (let round = 1; round <= 5; round++) {
    await sql`vacuum (freeze, analyze) blogs`.execute(db);
    const { rows } = await sql<{ relpages: number; relallvisible: number }>`select relpages, relallvisible from pg_class where relname = 'blogs'`.execute(db);
    if (rows[0]!.relallvisible >= rows[0]!.relpages) break;
  }
}

async function plan(db: Kysely<Database>, offset: number) {
  const { rows } = await sql<{ 'QUERY PLAN': string }>`explain (analyze, format text) ${selectPageIds(db, 'hot', { offset, limit: PAGE_SIZE + 1 })}`.execute(db);
  const lines = rows.map((row) => row['QUERY PLAN']);
  return {
    execution: lines.find((line) => line.startsWith('Execution Time'))?.replace('Execution Time: ', '') ?? '?',
    usesIndex: lines.some((line) => line.includes('blogs_hot_idx')),
    sorts: lines.some((line) => /\bSort\b/.test(line)),
  };
}
