/**
 * Votes and search benchmark on Postgres:
 *  - votes per second through PUT /api/blogs/:id/vote with 50 concurrent clients (autocannon),
 *    many users voting on a handful of blogs, then a check that every blog's counts still equal
 *    its votes (`count(*) … group by direction`);
 *  - GET /api/search latency (p50, p99 of sequential requests with varied terms) at 10,000 and
 *    at 100,000 blogs, with the database's own plan and time for a typical term.
 *
 *   node --import tsx bench/votes-search.bench.ts
 *   DATABASE_URL=postgres://... node --import tsx bench/votes-search.bench.ts
 *
 * With DATABASE_URL, a fresh database is created on that server and dropped at the end; without
 * it, a throwaway cluster is started with scripts/throwaway-postgres.sh and stopped at the end.
 * The app runs from source (src/server/main.ts, production mode) in its own process, so it does
 * not share an event loop with autocannon. Figures go to stdout, and to the file BENCH_OUT
 * names if it is set.
 */
import { randomBytes, randomInt, randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import { type Kysely, sql } from 'kysely';
import { openDatabase } from '../src/server/db/database.js';
import { migrateToLatest } from '../src/server/db/migrate.js';
import type { Database } from '../src/server/db/schema.js';
import { preferTitleIndex, searchBlogRows } from '../src/server/search/search.repository.js';
import { searchWords } from '../src/server/search/search-words.js';
import { createSignedInUsers } from '../src/server/testing/signed-in-users.js';
import { castVote } from '../src/server/votes/votes.service.js';
import { benchDatabase, freePort, root, start, stop, waitFor } from './support/bench-processes.js';

const VOTE_CONNECTIONS = 50;
const VOTE_SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const VOTERS = 2_000;
const VOTED_BLOGS = 5;
const SEARCH_SAMPLES = Number(process.env.BENCH_SEARCH_SAMPLES ?? 300);
const SEARCH_WARMUP = 30;
const SIZES = [10_000, 100_000];

/** Title words: common enough that an OR of two of them matches thousands of titles at 100,000 blogs. */
const WORDS = `
  apple autumn bakery balcony banana beach bicycle birthday blue bread breakfast bridge budget
  butter cabin camera camping candle canyon career carpet castle cat cheese cherry chess chocolate
  city classic climbing cloud coast coffee coding comedy concert cooking cottage country craft
  cycling dance desert design diary dinner dog dream early easy engine evening family farm
  festival fishing flower forest friendship garden ghost giant glass golden guitar habit harbor
  harvest healthy hiking history holiday honey horse house island jazz journey jungle kitchen
  knitting lake lantern lemon library light market meadow memory midnight mountain museum music
  night noodle ocean office orange painting paper park pasta pepper photo piano picnic planet
  poetry pottery puzzle quiet rain recipe river road robot running sailing salad school science
  season secret silver simple sketch sleep snow soup spring star storm street summer sunset
  swimming table tea tennis theatre thunder tomato tower train travel tree valley village
  vintage walking warm water weekend whale window winter wood writing yoga
`.trim().split(/\s+/);

interface VoteRun {
  /** The same votes straight through `castVote` (no HTTP, no session check), 50 callers at once. */
  databaseOnlyPerSecond: number;
  requestsPerSecond: number;
  votesPerSecond: number;
  applied: number;
  repeats: number;
  other: number;
  p50: number;
  p99: number;
  exact: boolean;
  blogs: Array<{ upvotes: number; downvotes: number; rating: number; counted: { up: number; down: number } }>;
}

interface SearchRun {
  blogs: number;
  p50: number;
  p99: number;
  mean: number;
  averageTotal: number;
  planUsesIndex: boolean;
  execution: string;
  sampleTerm: string;
  sampleTotal: number;
}

const loadAverages = { start: os.loadavg()[0]!.toFixed(1) };

await main();

async function main() {
  const cleanups: Array<() => Promise<void> | void> = [];
  try {
    const databaseUrl = await benchDatabase('votes_search_bench', cleanups);
    const database = await openDatabase({ databaseUrl, dataDir: os.tmpdir() });
    cleanups.push(() => database.close());
    await migrateToLatest(database.db);

    const authSecret = randomBytes(32).toString('hex');
    const port = await freePort();
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'votes-search-bench-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const app = start(process.execPath, ['--import', 'tsx', path.join(root, 'src/server/main.ts')], {
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      PUBLIC_URL: `http://localhost:${port}`,
      AUTH_SECRET: authSecret,
      AUTH_REQUIRE_EMAIL_VERIFICATION: 'false',
      LOG_LEVEL: 'warn',
      TRUST_PROXY: '127.0.0.1',
      AI_API_KEY: '',
      SMTP_URL: '',
    });
    cleanups.push(() => stop(app));
    const base = `http://127.0.0.1:${port}`;
    await waitFor(`${base}/api/health`);

    const authorId = await insertAuthor(database.db);
    const votes = await benchVotes(database.db, base, authSecret, authorId);

    const searches: SearchRun[] = [];
    let seeded = 0;
    for (const size of SIZES) {
      const started = performance.now();
      await seedBlogs(database.db, authorId, seeded, size - VOTED_BLOGS);
      seeded = size - VOTED_BLOGS;
      console.log(`Seeded up to ${size.toLocaleString('en')} blogs in ${((performance.now() - started) / 1000).toFixed(1)} s.`);
      searches.push(await benchSearch(database.db, base, size));
    }

    const report = formatReport(votes, searches, process.env.DATABASE_URL ? 'DATABASE_URL' : 'throwaway cluster', await postgresVersion(database.db));
    console.log(`\n${report}`);
    // Written to a file only when asked: a benchmark leaves nothing outside the repository.
    const out = process.env.BENCH_OUT;
    if (out) {
      mkdirSync(path.dirname(out), { recursive: true });
      writeFileSync(out, report);
      console.log(`Written to ${out}`);
    }
  } finally {
    for (const step of cleanups.reverse()) await step();
  }
}

// --- votes ---

async function benchVotes(db: Kysely<Database>, base: string, authSecret: string, authorId: string): Promise<VoteRun> {
  const blogIds: string[] = [];
  for (let i = 0; i < VOTED_BLOGS; i++) {
    const row = await db.insertInto('blogs').values({ user_id: authorId, title: `Voted blog ${i}`, body: 'Vote on me.' }).returning('id').executeTakeFirstOrThrow();
    blogIds.push(row.id);
  }
  const voters: Array<{ id: string; cookie: string }> = [];
  for (let i = 0; i < VOTERS; i += 500) voters.push(...(await createSignedInUsers({ db, authSecret }, Math.min(500, VOTERS - i))));

  // Each request picks a voter and a blog and votes the other way from that pair's last vote, so
  // nearly every request changes a vote; a pair that meets itself in flight answers 409.
  const lastVote = new Map<string, 'up' | 'down'>();
  const nextRequest = (request: autocannon.Request): autocannon.Request => {
    const voter = voters[randomInt(voters.length)]!;
    const blogId = blogIds[randomInt(blogIds.length)]!;
    const key = `${voter.id}:${blogId}`;
    const direction = lastVote.get(key) === 'up' ? 'down' : 'up';
    lastVote.set(key, direction);
    return {
      ...request,
      method: 'PUT',
      path: `/api/blogs/${blogId}/vote`,
      // Same-origin writes only; each request from its own address, so the per-address vote limit
      // sees a crowd (TRUST_PROXY below), as in life.
      headers: { 'content-type': 'application/json', cookie: voter.cookie, origin: base.replace('127.0.0.1', 'localhost'), 'x-forwarded-for': `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}` },
      body: JSON.stringify({ direction }),
    };
  };
  const run = (duration: number) =>
    autocannon({ url: base, connections: VOTE_CONNECTIONS, duration, requests: [{ setupRequest: nextRequest }] });

  await run(2); // warm-up: JIT, connection pools, the blog rows in cache
  const result = await run(VOTE_SECONDS);
  const statusCount = (code: number) => (result.statusCodeStats as Record<string, { count: number } | undefined>)[String(code)]?.count ?? 0;
  const applied = statusCount(200);
  const repeats = statusCount(409);
  const other = result.requests.total - applied - repeats + result.errors + result.timeouts;

  const databaseOnlyPerSecond = await databaseOnlyVotes(db, voters, blogIds, lastVote);

  // One statement, one snapshot: a vote still in flight cannot fall between the two reads.
  const { rows } = await sql<{ upvotes: number; downvotes: number; rating: number; up: number; down: number }>`
    select b.upvotes, b.downvotes, b.rating,
           (select count(*)::int from votes v where v.blog_id = b.id and v.direction = 'up') as up,
           (select count(*)::int from votes v where v.blog_id = b.id and v.direction = 'down') as down
    from blogs b where b.id in (${sql.join(blogIds)})`.execute(db);
  const blogs = rows.map((row) => ({ upvotes: row.upvotes, downvotes: row.downvotes, rating: row.rating, counted: { up: row.up, down: row.down } }));
  const exact = blogs.every(
    (b) => b.upvotes === b.counted.up && b.downvotes === b.counted.down && b.rating === b.counted.up - b.counted.down,
  );
  const votes: VoteRun = {
    databaseOnlyPerSecond,
    requestsPerSecond: result.requests.total / VOTE_SECONDS,
    votesPerSecond: applied / VOTE_SECONDS,
    applied,
    repeats,
    other,
    p50: result.latency.p50,
    p99: result.latency.p99,
    exact,
    blogs,
  };
  console.log(
    `Votes: ${votes.votesPerSecond.toFixed(0)} applied/s (${votes.requestsPerSecond.toFixed(0)} req/s), p50 ${votes.p50} ms, p99 ${votes.p99} ms; ` +
      `${applied} applied, ${repeats} repeats (409), ${other} other; counts exact: ${exact ? 'yes' : 'NO'}; ` +
      `database only: ${databaseOnlyPerSecond.toFixed(0)} votes/s`,
  );
  if (!exact) throw new Error(`Counts drifted from the votes: ${JSON.stringify(blogs)}`);
  if (other > 0) throw new Error(`${other} vote requests failed (neither 200 nor 409)`);
  return votes;
}

/** How fast the vote itself is: `castVote` from 50 concurrent loops, through a pool of 10 like the app's. */
async function databaseOnlyVotes(
  db: Kysely<Database>,
  voters: Array<{ id: string }>,
  blogIds: string[],
  lastVote: Map<string, 'up' | 'down'>,
): Promise<number> {
  const deadline = performance.now() + (VOTE_SECONDS * 1000) / 2;
  let applied = 0;
  await Promise.all(
    Array.from({ length: VOTE_CONNECTIONS }, async () => {
      while (performance.now() < deadline) {
        const voter = voters[randomInt(voters.length)]!;
        const blogId = blogIds[randomInt(blogIds.length)]!;
        const key = `${voter.id}:${blogId}`;
        const direction = lastVote.get(key) === 'up' ? 'down' : 'up';
        lastVote.set(key, direction);
        try {
          await castVote(db, { blogId, userId: voter.id, direction });
          applied++;
        } catch (err) {
          if ((err as { statusCode?: number }).statusCode !== 409) throw err;
        }
      }
    }),
  );
  return applied / (VOTE_SECONDS / 2);
}

// --- search ---

/** Blogs `from + 1 .. to` of one author: 3 to 6 words from WORDS, reproducible, spread over time and ratings. */
async function seedBlogs(db: Kysely<Database>, authorId: string, from: number, to: number) {
  const word = sql`w.list[1 + floor(random() * w.n)::int]`;
  // One transaction, so the seed and the insert share a connection of the pool.
  await db.transaction().execute(async (trx) => {
    await sql`select setseed(${from / (to + 1)})`.execute(trx);
    await sql`
    insert into blogs (user_id, title, body, upvotes, downvotes, created_at, updated_at)
    select ${authorId},
           initcap(${word}) || ' ' || ${word} || ' ' || ${word}
             || case when random() < 0.6 then ' ' || ${word} else '' end
             || case when random() < 0.3 then ' ' || ${word} else '' end
             || case when random() < 0.1 then ' ' || ${word} else '' end,
           'A benchmark blog body. ' || g,
           (g::bigint * 7919) % 23, (g::bigint * 104729) % 7,
           now() - g * interval '1 minute', now() - g * interval '1 minute'
    from generate_series(${from + 1}::int, ${to}::int) as g,
         (select ${WORDS}::text[] as list, ${WORDS.length}::int as n) as w`.execute(trx);
  });
  await sql`analyze blogs`.execute(db);
}

/** One to three words, now and then one that matches nothing, and now and then page 2. */
function randomSearch(): { term: string; page: number } {
  const count = 1 + randomInt(3);
  const words = Array.from({ length: count }, () => (randomInt(10) === 0 ? `zz${randomInt(1000)}` : WORDS[randomInt(WORDS.length)]!));
  return { term: words.join(' '), page: randomInt(5) === 0 ? 2 : 1 };
}

async function benchSearch(db: Kysely<Database>, base: string, blogs: number): Promise<SearchRun> {
  const times: number[] = [];
  let totals = 0;
  for (let i = 0; i < SEARCH_WARMUP + SEARCH_SAMPLES; i++) {
    const { term, page } = randomSearch();
    const started = performance.now();
    const response = await fetch(`${base}/api/search?${new URLSearchParams({ searchTerm: term, page: String(page) })}`);
    const body = (await response.json()) as { total: number };
    const elapsed = performance.now() - started;
    if (response.status !== 200) throw new Error(`search for ${term} answered ${response.status}`);
    if (i >= SEARCH_WARMUP) {
      times.push(elapsed);
      totals += body.total;
    }
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!;

  const sampleTerm = `${WORDS[0]} ${WORDS[1]}`;
  // As the service runs it: in a transaction steered to the title index.
  const plan = await db.transaction().execute(async (trx) => {
    await preferTitleIndex(trx);
    return searchBlogRows(trx, { words: searchWords(sampleTerm), viewerId: null, limit: 5, offset: 0 }).explain('text', sql`analyze`);
  });
  const lines = plan.map((row) => String(Object.values(row)[0]));
  const sampleTotal = await fetch(`${base}/api/search?${new URLSearchParams({ searchTerm: sampleTerm })}`).then(async (r) => ((await r.json()) as { total: number }).total);
  const run: SearchRun = {
    blogs,
    p50: at(0.5),
    p99: at(0.99),
    mean: times.reduce((a, b) => a + b, 0) / times.length,
    averageTotal: totals / times.length,
    planUsesIndex: lines.some((line) => line.includes('blogs_title_tsv_idx')),
    execution: lines.find((line) => line.startsWith('Execution Time'))?.replace('Execution Time: ', '') ?? '?',
    sampleTerm,
    sampleTotal,
  };
  console.log(
    `Search at ${blogs.toLocaleString('en')} blogs: p50 ${run.p50.toFixed(1)} ms, p99 ${run.p99.toFixed(1)} ms ` +
      `(mean ${run.mean.toFixed(1)} ms, ${run.averageTotal.toFixed(0)} matches on average); '${sampleTerm}' (${sampleTotal} matches) ` +
      `runs in ${run.execution} in the database, GIN index: ${run.planUsesIndex ? 'yes' : 'NO'}`,
  );
  return run;
}

// --- report ---

function formatReport(votes: VoteRun, searches: SearchRun[], databaseKind: string, version: string) {
  const searchRows = searches
    .map(
      (s) =>
        `| ${s.blogs.toLocaleString('en')} | ${s.p50.toFixed(1)} | ${s.p99.toFixed(1)} | ${s.mean.toFixed(1)} | ${s.averageTotal.toFixed(0)} | ` +
        `${s.sampleTotal} / ${s.execution} | ${s.planUsesIndex ? 'yes' : 'no'} |`,
    )
    .join('\n');
  return `# Votes and search benchmark (bench/votes-search.bench.ts)

Run ${new Date().toISOString()} on ${os.cpus().length} CPU(s) (${os.cpus()[0]?.model ?? 'unknown'}), Node ${process.version},
${version} (${databaseKind}, the app's pool of 10 connections). The app runs from source in production mode
(LOG_LEVEL=warn) in its own process; autocannon and the sequential search client run in this one. Everything shares
the same ${os.cpus().length} cores with whatever else the machine was doing (load average ${loadAverages.start} at the start,
${os.loadavg()[0]!.toFixed(1)} at the end), so absolute figures are modest.

## Votes: PUT /api/blogs/:id/vote, ${VOTE_CONNECTIONS} concurrent clients, ${VOTE_SECONDS} s after a 2 s warm-up

${VOTERS.toLocaleString('en')} signed-in users vote on ${VOTED_BLOGS} blogs; each request votes the other way from that
user's last vote on that blog, so nearly every request moves a count (a pair meeting itself in flight answers 409).

| votes applied per second | requests per second | p50 ms | p99 ms | applied (200) | repeats (409) | failed |
|---|---|---|---|---|---|---|
| ${votes.votesPerSecond.toFixed(0)} | ${votes.requestsPerSecond.toFixed(0)} | ${votes.p50} | ${votes.p99} | ${votes.applied} | ${votes.repeats} | ${votes.other} |

The vote alone (\`castVote\`: one transaction of upsert, trigger and read-back, no HTTP and no session check), 50 concurrent
callers on the same 5 blogs for ${VOTE_SECONDS / 2} s: **${votes.databaseOnlyPerSecond.toFixed(0)} votes per second**. The difference is the HTTP
layer and the session check (Better Auth verifies the cookie and reads the session and its user on every request), which
share the two cores with autocannon and Postgres.

Afterwards every blog's stored counts equal its votes (\`count(*) … group by direction\`) and rating = up − down:
**${votes.exact ? 'yes' : 'NO'}** (${votes.blogs.map((b) => `${b.upvotes}/${b.downvotes}`).join(', ')} up/down).
All votes on one blog take turns on that blog's row (the counts trigger updates it), which is what keeps them exact;
it also caps the rate for a single very hot blog.

## Search: GET /api/search, ${SEARCH_SAMPLES} sequential requests after ${SEARCH_WARMUP} warm-up

Titles of 3 to 6 words from a list of ${WORDS.length}; each search has 1 to 3 words (one in ten matching nothing), one in five
asks for page 2. Times are the whole HTTP round trip; the last columns are the database's own time (EXPLAIN ANALYZE) for
page 1 of '${searches[0]?.sampleTerm ?? ''}' and whether its plan uses the GIN index \`blogs_title_tsv_idx\`.

| blogs | p50 ms | p99 ms | mean ms | matches per search (avg) | sample: matches / database time | GIN index |
|---|---|---|---|---|---|---|
${searchRows}

Matches are ranked, counted and cut to the page on \`blogs\` alone, and only the page's 5 rows are joined to authors and
votes. Ranking reads every matching row (\`ts_rank\` over all matches), so the cost grows with the number of matches,
not with the table: a common word at 100,000 blogs matches a few thousand titles, a rare one a handful. The search runs
with \`enable_seqscan = off\` (set locally in its transaction): the planner costs tsvector matching like an integer
comparison and, for a word in one title of twenty, sometimes chose to scan the whole table, which in a separate
measurement on this machine was 3 to 6 times slower at 100,000 blogs (8-16 ms with the index against 52-86 ms without,
for 1 to 3 common words).
`;
}

// --- processes, ports, database ---

async function insertAuthor(db: Kysely<Database>): Promise<string> {
  const id = randomUUID();
  const now = new Date();
  await db.insertInto('user').values({ id, name: 'bench', email: `bench-${id}@example.com`, emailVerified: true, image: null, createdAt: now, updatedAt: now }).execute();
  return id;
}

async function postgresVersion(db: Kysely<Database>): Promise<string> {
  const { rows } = await sql<{ version: string }>`select version()`.execute(db);
  return rows[0]?.version.split(' on ')[0] ?? 'PostgreSQL';
}

