/**
 * Blog list benchmark, with 10,000 blogs in Postgres:
 *  - requests per second and p99 latency (autocannon, ~5 s each) of GET /api/blogs?page=1 and of
 *    the home page HTML (/), against a bare Fastify route returning a constant JSON, measured in
 *    the same run on the same machine; the ratios are printed;
 *  - the time of page 1 versus page 1,000 (p50 of 200 sequential requests each).
 *
 *   BUILD_DIR=dist node --import tsx bench/blogs.bench.ts      (needs `npm run build` first)
 *   DATABASE_URL=postgres://... node --import tsx bench/blogs.bench.ts
 *
 * With DATABASE_URL, a fresh database is created on that server and dropped at the end; without
 * it, a throwaway cluster is started with scripts/throwaway-postgres.sh and stopped at the end.
 * The built app (BUILD_DIR/server/main.js, as in production) and the bare Fastify server each run
 * in their own process, so neither shares an event loop with autocannon.
 * Figures go to stdout, and to the file BENCH_OUT names if it is set.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import { sql } from 'kysely';
import { openDatabase } from '../src/server/db/database.js';
import { migrateToLatest } from '../src/server/db/migrate.js';
import { benchDatabase, builtServerEntry, sequentialTimes, startBareFastify, startBuiltApp } from './support/bench-processes.js';

const BLOGS = 10_000;
const DURATION_SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = 10;
const SAMPLES = 200;

await main();

async function main() {
  const mainJs = builtServerEntry();

  const cleanups: Array<() => Promise<void> | void> = [];
  const cleanUp = async () => {
    for (const step of cleanups.reverse()) await step();
  };
  try {
    const databaseUrl = await benchDatabase('blogs_bench', cleanups);
    const database = await openDatabase({ databaseUrl, dataDir: os.tmpdir() });
    cleanups.push(() => database.close());
    await migrateToLatest(database.db);
    const seedStarted = performance.now();
    await seed(database.db);
    const seedMs = performance.now() - seedStarted;
    const plans = await queryPlans(database.db);

    const appBase = await startBuiltApp(mainJs, databaseUrl, cleanups);
    const bareBase = await startBareFastify(cleanups);

    const firstPage = (await (await fetch(`${appBase}/api/blogs?page=1`)).json()) as { items: unknown[]; hasMore: boolean };
    const deepPage = (await (await fetch(`${appBase}/api/blogs?page=1000`)).json()) as { items: unknown[]; hasMore: boolean };
    if (firstPage.items.length !== 5 || !firstPage.hasMore || deepPage.items.length !== 5 || !deepPage.hasMore) {
      throw new Error('The seeded list does not answer as expected (5 items and hasMore on pages 1 and 1,000 of 2,000).');
    }

    console.log(`Seeded ${BLOGS} blogs in ${seedMs.toFixed(0)} ms. Load: ${CONNECTIONS} connections, ${DURATION_SECONDS} s each.`);
    const bareRun = await load('bare Fastify constant JSON', `${bareBase}/`);
    const listRun = await load('GET /api/blogs?page=1', `${appBase}/api/blogs?page=1`);
    const htmlRun = await load('GET / (home page HTML)', `${appBase}/`);

    const page1 = await sequentialTimes(`${appBase}/api/blogs?page=1`, SAMPLES);
    const page1000 = await sequentialTimes(`${appBase}/api/blogs?page=1000`, SAMPLES);

    const report = formatReport({ bareRun, listRun, htmlRun, page1, page1000, plans, databaseKind: process.env.DATABASE_URL ? 'DATABASE_URL' : 'throwaway cluster' });
    console.log(report);
    // Written to a file only when asked: a benchmark leaves nothing outside the repository.
    const out = process.env.BENCH_OUT;
    if (out) {
      mkdirSync(path.dirname(out), { recursive: true });
      writeFileSync(out, report);
      console.log(`Written to ${out}`);
    }
  } finally {
    await cleanUp();
  }
}

interface LoadResult {
  name: string;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

async function load(name: string, url: string): Promise<LoadResult> {
  // A short warm-up so the JIT and the connection pools are ready before measuring.
  await autocannon({ url, connections: CONNECTIONS, duration: 1 });
  const result = await autocannon({ url, connections: CONNECTIONS, duration: DURATION_SECONDS });
  const row = {
    name,
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
  console.log(`${name}: ${row.requestsPerSecond.toFixed(0)} req/s, p50 ${row.p50} ms, p99 ${row.p99} ms`);
  if (row.errors || row.non2xx) throw new Error(`${name}: ${row.errors} errors and ${row.non2xx} non-2xx answers`);
  return row;
}

/** 10,000 blogs of one author in one statement, spread over ratings and times like a real site. */
async function seed(db: Awaited<ReturnType<typeof openDatabase>>['db']) {
  const userId = randomUUID();
  const now = new Date();
  await db
    .insertInto('user')
    .values({ id: userId, name: 'bench', email: `bench-${userId}@example.com`, emailVerified: true, image: null, createdAt: now, updatedAt: now })
    .execute();
  await sql`
    insert into blogs (user_id, title, body, upvotes, downvotes, created_at, updated_at)
    select ${userId}, 'Benchmark blog number ' || g, repeat('Some words of a blog body. ', 20),
           (g * 7919) % 23, (g * 104729) % 7, now() - g * interval '1 minute', now() - g * interval '1 minute'
    from generate_series(1, ${BLOGS}) as g`.execute(db);
  // What autovacuum does on a live site after a bulk insert: statistics, and the visibility map
  // that lets the page query scan the index alone. The first VACUUM right after the insert can
  // leave the map empty (the rows still look too new to it), so it runs until the map is full.
  for (let round = 1; round <= 5; round++) {
    await sql`vacuum (freeze, analyze) blogs`.execute(db);
    const stats = await sql<{ relpages: number; relallvisible: number }>`
      select relpages, relallvisible from pg_class where relname = 'blogs'`.execute(db);
    const { relpages, relallvisible } = stats.rows[0]!;
    if (relallvisible >= relpages) break;
    if (round === 5) console.warn(`The visibility map covers ${relallvisible} of ${relpages} pages after ${round} vacuums.`);
  }
}

/** The database's own time for the page query at both depths, and whether it scans the index only. */
async function queryPlans(db: Awaited<ReturnType<typeof openDatabase>>['db']) {
  const plan = async (offset: number) => {
    const result = await sql<{ 'QUERY PLAN': string }>`
      explain (analyze, format text)
      select blogs.id from blogs
      where blogs.id in (select id from blogs order by rating desc, created_at desc, id desc offset ${offset} limit 6)
      order by rating desc, created_at desc, id desc`.execute(db);
    const lines = result.rows.map((row) => row['QUERY PLAN']);
    const execution = lines.find((line) => line.startsWith('Execution Time'))?.replace('Execution Time: ', '') ?? '?';
    return { execution, indexOnly: lines.some((line) => line.includes('Index Only Scan using blogs_home_order_idx')) };
  };
  return { page1: await plan(0), page1000: await plan(999 * 5) };
}

function formatReport(r: {
  bareRun: LoadResult;
  listRun: LoadResult;
  htmlRun: LoadResult;
  page1: { p50: number; p95: number };
  page1000: { p50: number; p95: number };
  plans: Awaited<ReturnType<typeof queryPlans>>;
  databaseKind: string;
}) {
  const ratio = (a: LoadResult) => `${((a.requestsPerSecond / r.bareRun.requestsPerSecond) * 100).toFixed(1)} % of bare`;
  const row = (a: LoadResult, vsBare: string) =>
    `| ${a.name} | ${a.requestsPerSecond.toFixed(0)} | ${a.p50} | ${a.p99} | ${vsBare} |`;
  return `# Blogs benchmark (bench/blogs.bench.ts)

Run ${new Date().toISOString()} on ${os.cpus().length} CPU(s) (${os.cpus()[0]?.model ?? 'unknown'}), load average at the end
${os.loadavg().map((l) => l.toFixed(1)).join(' / ')} (1 / 5 / 15 min; other work on the machine lowers every figure), Node ${process.version},
Postgres (${r.databaseKind}) with ${BLOGS.toLocaleString('en')} blogs. The built app (production mode, LOG_LEVEL=warn) and a bare
Fastify server each run in their own process; autocannon runs in a third, ${CONNECTIONS} connections, ${DURATION_SECONDS} s per target,
after a 1 s warm-up. All three share the same ${os.cpus().length} cores, so absolute figures are low; the ratios are the point.

| target | req/s | p50 ms | p99 ms | vs bare |
|---|---|---|---|---|
${row(r.bareRun, '100 %')}
${row(r.listRun, ratio(r.listRun))}
${row(r.htmlRun, ratio(r.htmlRun))}

Ratios: the list API serves ${(r.listRun.requestsPerSecond / r.bareRun.requestsPerSecond).toFixed(3)}x the bare route's requests per second
(p99 ${(r.listRun.p99 / Math.max(r.bareRun.p99, 1)).toFixed(1)}x); the home page HTML ${(r.htmlRun.requestsPerSecond / r.bareRun.requestsPerSecond).toFixed(3)}x
(p99 ${(r.htmlRun.p99 / Math.max(r.bareRun.p99, 1)).toFixed(1)}x).

## Page 1 versus page 1,000 (${SAMPLES} sequential requests each, after 20 warm-up)

| page | p50 ms | p95 ms | database execution time (EXPLAIN ANALYZE) | index-only scan of blogs_home_order_idx |
|---|---|---|---|---|
| 1 | ${r.page1.p50.toFixed(2)} | ${r.page1.p95.toFixed(2)} | ${r.plans.page1.execution} | ${r.plans.page1.indexOnly ? 'yes' : 'no'} |
| 1,000 | ${r.page1000.p50.toFixed(2)} | ${r.page1000.p95.toFixed(2)} | ${r.plans.page1000.execution} | ${r.plans.page1000.indexOnly ? 'yes' : 'no'} |

Page 1,000 takes ${(r.page1000.p50 / r.page1.p50).toFixed(2)}x the time of page 1 at p50. The page's ids come from an index-only
scan that skips (page - 1) * 5 index entries; only the 6 rows of the page are joined to their authors and votes.
`;
}

// --- processes, ports, database ---

