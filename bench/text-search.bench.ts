/**
 * Search in text ('Search in text too', GET /api/search?in=all) at 100,000 blogs of about 1,000
 * words each: 10 concurrent readers (autocannon) searching for a common word, beside a bare
 * Fastify server in the same run (the machine is shared: the ratio is the steadier figure), then
 * a word of middling frequency, a rare one, the spec's title search of the same common word, the
 * database's own time for each step of the common word's search, and what a write costs now that
 * the index and the word counts follow every write.
 *
 *   node --import tsx bench/text-search.bench.ts                    (Postgres: DATABASE_URL, else a throwaway cluster)
 *   BENCH_DB=pglite node --import tsx bench/text-search.bench.ts    (the embedded PGlite, on disk)
 *
 * BENCH_BLOGS (default 100000), BENCH_SECONDS per load (default 15). The app runs from source
 * (src/server/main.ts, production mode) in its own process with the response cache off
 * (RESPONSE_CACHE_MB=0), so every answer is computed: with the cache on, a repeated search is
 * answered from memory. BENCH_APP_NODE_ARGS adds Node options to the app (a CPU profile:
 * "--cpu-prof --cpu-prof-dir=profiles", then bench/support/profile-summary.ts). Figures go to
 * stdout, and to the file BENCH_OUT names if set.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import { type Expression, type Kysely, sql } from 'kysely';
import { openDatabase, type DatabaseHandle } from '../src/server/db/database.js';
import { migrateToLatest } from '../src/server/db/migrate.js';
import type { Database } from '../src/server/db/schema.js';
import { countTextMatchesQuery, matchPageIds, prepareTextSearch, selectMatchPage, type MatchPage } from '../src/server/search/text-search.repository.js';
import { SEARCH_TEXT_RANK_CAP } from '../src/server/search/text-search.service.js';
import { benchDatabase, freePort, root, start, startBareFastify, stop, waitFor, type Cleanups } from './support/bench-processes.js';

const BLOGS = Number(process.env.BENCH_BLOGS ?? 100_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
const CONNECTIONS = 10;
const KIND = process.env.BENCH_DB === 'pglite' ? 'pglite' : 'postgres';
const APP_NODE_ARGS = (process.env.BENCH_APP_NODE_ARGS ?? '').split(/\s+/).filter(Boolean);
/** BENCH_ONLY=common: the bare server and the common word only (a profile of that load). */
const ONLY_COMMON = process.env.BENCH_ONLY === 'common';
const BATCH = 5_000;
const SENTENCES = 4_000;
const WORDS_PER_SENTENCE = 25;
const SENTENCES_PER_BLOG = 40;

/**
 * The vocabulary: real English words (no stop words, which the index drops) first, then 20,000
 * made-up ones. Words are drawn with a skew (index = n · u^2.5): the first word is in nearly every
 * blog, words a few thousand down in a few percent, the last in a handful.
 */
const REAL_WORDS = `
  garden water light music river house paper window morning travel coffee market winter summer
  mountain forest village kitchen bread letter picture street friend country school history
  number family animal island question machine camera engine planet season harbor bridge castle
  museum library theatre concert festival journey holiday weekend evening sunset thunder storm
  meadow valley desert ocean beach coast lantern candle silver golden orange lemon cherry apple
  butter cheese pepper tomato pasta salad soup honey chocolate cookie recipe dinner breakfast
  bicycle train tower office farm horse dog cat bird whale tiger garden2 puzzle poetry painting
  pottery sketch diary memory dream secret quiet simple early warm healthy classic vintage
`.trim().split(/\s+/);
const MADE_UP_WORDS = 20_000;
const TAGS = ['travel', 'food', 'music', 'science', 'history', 'art', 'books', 'code', 'garden', 'family', 'sport', 'film', 'photo', 'nature', 'city'];

interface LoadRow {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  total?: number;
}

const startedAt = new Date();
const loadAverages = { start: os.loadavg()[0]!.toFixed(1) };

await main();

async function main() {
  const cleanups: Cleanups = [];
  try {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'text-search-bench-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const databaseUrl = KIND === 'postgres' ? await benchDatabase('text_search_bench', cleanups) : undefined;

    let database: DatabaseHandle | undefined = await openDatabase(databaseUrl ? { databaseUrl, dataDir } : { dataDir });
    const closeDatabase = async () => {
      await database?.close();
      database = undefined;
    };
    cleanups.push(closeDatabase);
    const db = database.db;
    await migrateToLatest(db);
    const version = await databaseVersion(db);
    const authorId = await insertAuthor(db);

    const seeding = performance.now();
    await seed(db, authorId);
    const seedSeconds = (performance.now() - seeding) / 1000;
    const shape = await corpusShape(db);
    console.log(
      `Seeded ${BLOGS.toLocaleString('en')} blogs in ${seedSeconds.toFixed(0)} s: ${shape.words.toFixed(0)} words and ` +
        `${(shape.textBytes / 1024).toFixed(1)} KB of text a blog on average; ${shape.lexemes.toLocaleString('en')} distinct lexemes.`,
    );
    const terms = await pickTerms(db);
    console.log(`Common word '${terms.common.word}' (${terms.common.blogs} blogs), middling '${terms.middling.word}' (${terms.middling.blogs}), rare '${terms.rare.word}' (${terms.rare.blogs}).`);
    const database_ = await databaseTimes(db, terms.common.word);
    if (process.env.BENCH_PLANS) console.log(database_.idsPlan);
    const writes = await writeCosts(db, authorId);
    // PGlite's folder admits one process: the bench lets go of it before the app opens it.
    if (KIND === 'pglite') await closeDatabase();

    const appData = KIND === 'pglite' ? dataDir : mkdtempSync(path.join(os.tmpdir(), 'text-search-bench-app-'));
    if (appData !== dataDir) cleanups.push(() => rmSync(appData, { recursive: true, force: true }));
    /** The app from source in production mode; `cache`: the response cache at its default size, else off. */
    const startApp = async (cache: boolean) => {
      const port = await freePort();
      const process_ = start(process.execPath, [...APP_NODE_ARGS, '--import', 'tsx', path.join(root, 'src/server/main.ts')], {
        NODE_ENV: 'production',
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: appData,
        ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
        PUBLIC_URL: `http://localhost:${port}`,
        AUTH_SECRET: 'x'.repeat(48),
        LOG_LEVEL: 'warn',
        ...(cache ? {} : { RESPONSE_CACHE_MB: '0' }),
        IMAGE_BACKFILL_ON_START: 'false',
        AI_API_KEY: '',
        SMTP_URL: '',
      });
      const base = `http://127.0.0.1:${port}`;
      await waitFor(`${base}/api/health`, 180_000);
      return { base, stop: () => stop(process_) };
    };
    const app = await startApp(false);
    cleanups.push(app.stop);
    const base = app.base;
    const bareBase = await startBareFastify(cleanups);

    const searchUrl = (term: string, searchIn = 'all') => `${base}/api/search?${new URLSearchParams({ searchTerm: term, ...(searchIn === 'all' ? { in: 'all' } : {}) })}`;
    const rows: LoadRow[] = [];
    rows.push(await load('bare Fastify: constant JSON', `${bareBase}/`));
    rows.push(await load(`in text: '${terms.common.word}' (${pct(terms.common.blogs)} of blogs), page 1`, searchUrl(terms.common.word)));
    let phrase: Awaited<ReturnType<typeof sequential>> | undefined;
    if (!ONLY_COMMON) {
      rows.push(await loadPages(`in text: '${terms.common.word}', pages 1 to 20 in turn`, searchUrl(terms.common.word)));
      rows.push(await load(`in text: '${terms.middling.word}' (${pct(terms.middling.blogs)}), page 1`, searchUrl(terms.middling.word)));
      rows.push(await load(`in text: '${terms.rare.word}' (${terms.rare.blogs} blogs, ranked), page 1`, searchUrl(terms.rare.word)));
      rows.push(await load(`in text: '${terms.common.word} ${terms.middling.word}' (both words)`, searchUrl(`${terms.common.word} ${terms.middling.word}`)));
      rows.push(await load(`titles (the spec's search): '${terms.common.word}'`, searchUrl(terms.common.word, 'title')));
      phrase = await sequential(searchUrl(`"${terms.common.word} ${REAL_WORDS[1]}"`), 10);
      // As the site runs by default: the same answers kept in memory until a write.
      await app.stop();
      const cached = await startApp(true);
      cleanups.push(cached.stop);
      rows.push(await load(`in text: '${terms.common.word}', page 1, response cache on (the default)`, searchUrl(terms.common.word).replace(base, cached.base)));
    }

    const report = formatReport({ version, seedSeconds, shape, terms, rows, phrase, database: database_, writes });
    console.log(`\n${report}`);
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

function pct(blogs: number): string {
  return `${((100 * blogs) / BLOGS).toFixed(blogs < BLOGS / 100 ? 1 : 0)}%`;
}

// --- seeding ---

/**
 * The corpus, in SQL: sentences of words drawn from the vocabulary with its skew, then each blog
 * 40 of those sentences (about 1,000 words), with Markdown source, HTML, excerpt and plain text
 * as the renderer stores them, 1 to 3 tags, ratings and dates. Batches of 5,000 in one statement
 * each, two at a time: the statement triggers count the words of a whole batch at once.
 */
async function seed(db: Kysely<Database>, authorId: string) {
  const vocabulary = [...REAL_WORDS, ...Array.from({ length: MADE_UP_WORDS }, (_, i) => `w${i.toString(36)}`)];
  await sql`create unlogged table bench_sentences (n int primary key, text text not null)`.execute(db);
  await db.transaction().execute(async (trx) => {
    await sql`select setseed(0.22)`.execute(trx);
    await sql`
      insert into bench_sentences (n, text)
      select s, string_agg(v.list[1 + floor(power(random(), 2.5) * v.n)::int + 0 * k], ' ')
      from (select ${vocabulary}::text[] as list, ${vocabulary.length}::int as n) as v,
           generate_series(1, ${SENTENCES}::int) as s, generate_series(1, ${WORDS_PER_SENTENCE}::int) as k
      group by s`.execute(trx);
  });
  const batches = Array.from({ length: Math.ceil(BLOGS / BATCH) }, (_, i) => [i * BATCH + 1, Math.min(BLOGS, (i + 1) * BATCH)] as const);
  const lanes = KIND === 'postgres' ? 2 : 1;
  let done = 0;
  await Promise.all(
    Array.from({ length: lanes }, async (_, lane) => {
      for (let i = lane; i < batches.length; i += lanes) {
        const [from, to] = batches[i]!;
        await insertBatch(db, authorId, from, to);
        done += to - from + 1;
        if (done % 20_000 < BATCH) console.log(`  ${done.toLocaleString('en')} blogs`);
      }
    }),
  );
  await sql`drop table bench_sentences`.execute(db);
  await sql`vacuum analyze blogs`.execute(db);
  await sql`vacuum analyze text_word_counts`.execute(db);
  await sql`vacuum analyze tag_counts`.execute(db);
}

async function insertBatch(db: Kysely<Database>, authorId: string, from: number, to: number) {
  await sql`
    insert into blogs (user_id, title, body, html, excerpt, body_text, reading_minutes, tags, upvotes, downvotes, created_at, updated_at)
    select ${authorId}, t.title, t.text, '<p>' || t.text || '</p>', left(t.text, 200), t.text, 5,
           array[(${TAGS}::text[])[1 + t.g % ${TAGS.length}]] || case when t.g % 3 = 0 then array[(${TAGS}::text[])[1 + (t.g / 3 + 1) % ${TAGS.length}]] else '{}' end,
           (t.g::bigint * 7919) % 23, (t.g::bigint * 104729) % 7,
           now() - t.g * interval '1 minute', now() - t.g * interval '1 minute'
    from (
      select g,
             initcap(split_part(sl.a[1 + (g * 7) % ${SENTENCES}], ' ', 1 + g % 9) || ' ' || split_part(sl.a[1 + (g * 13) % ${SENTENCES}], ' ', 1 + g % 11)
               || ' ' || split_part(sl.a[1 + (g * 17) % ${SENTENCES}], ' ', 1 + g % 13)) as title,
             (select string_agg(sl.a[1 + floor(random() * ${SENTENCES})::int + 0 * k], '. ') from generate_series(1, ${SENTENCES_PER_BLOG}::int) as k) || '.' as text
      from generate_series(${from}::int, ${to}::int) as g, (select array_agg(text order by n) as a from bench_sentences) as sl
    ) as t`.execute(db);
}

async function corpusShape(db: Kysely<Database>) {
  const { rows } = await sql<{ words: number; text_bytes: number; lexemes: number }>`
    select (select avg(array_length(regexp_split_to_array(body_text, '\\s+'), 1)) from (select body_text from blogs limit 1000) as s)::float8 as words,
           (select avg(octet_length(body_text)) from blogs)::float8 as text_bytes,
           (select count(*) from text_word_counts)::int as lexemes`.execute(db);
  return { words: rows[0]!.words, textBytes: rows[0]!.text_bytes, lexemes: rows[0]!.lexemes };
}

/** The most common lexeme, one in about 3% of the blogs (ranked no more: tiers), and one in about 300 (ranked). */
async function pickTerms(db: Kysely<Database>) {
  const near = async (blogs: number) =>
    (
      await sql<{ word: string; blogs: number }>`
        select lexeme as word, blogs from text_word_counts where lexeme ~ '^[a-z0-9]+$' order by abs(blogs - ${Math.round(blogs)}), lexeme limit 1`.execute(db)
    ).rows[0]!;
  return { common: await near(BLOGS * 2), middling: await near(BLOGS * 0.03), rare: await near(Math.min(300, BLOGS / 300)) };
}

// --- database ---

/**
 * The database's own time (EXPLAIN ANALYZE, warm) of each step of one search for the common word,
 * as the app runs a one-word search: two statements with the planner's own choices.
 */
async function databaseTimes(db: Kysely<Database>, term: string) {
  return db.transaction().execute(async (trx) => {
    const time = async (query: { explain(format: 'text', options: Expression<unknown>): Promise<Record<string, unknown>[]> }) => {
      await query.explain('text', sql`analyze`); // warm
      const lines = (await query.explain('text', sql`analyze`)).map((row) => String(Object.values(row)[0]));
      const ms = (label: string) => Number(new RegExp(`${label} Time: ([\\d.]+)`).exec(lines.join('\n'))?.[1] ?? NaN);
      return { ms: ms('Execution'), planning: ms('Planning'), plan: lines.join('\n') };
    };
    const counts = await time(countTextMatchesQuery(trx, term, SEARCH_TEXT_RANK_CAP, { throughIndex: false }));
    const { in_titles: inTitles } = await countTextMatchesQuery(trx, term, SEARCH_TEXT_RANK_CAP, { throughIndex: false }).executeTakeFirstOrThrow();
    // Page 1: what the title tier has, the rest from the text tier.
    const fromTitles = Math.min(5, inTitles ?? 0);
    const page: MatchPage = { kind: 'tiers', title: fromTitles > 0 ? { limit: fromTitles, offset: 0 } : undefined, text: fromTitles < 5 ? { limit: 5 - fromTitles, offset: 0 } : undefined };
    const ids = await time(trx.selectFrom(matchPageIds(trx, term, page)).selectAll());
    const cards = await time(selectMatchPage(trx, term, page));
    // The same count through the index instead of the kept number: what `text_word_counts` saves.
    await prepareTextSearch(trx, 60_000);
    const { rows } = await sql<{ 'QUERY PLAN': string }>`
      explain analyze select count(*) from blogs
      where search_tsv @@ websearch_to_tsquery('english', ${term}) and status = 'published' and hidden_at is null and author_suspended_at is null`.execute(trx);
    const countedMs = Number(/Execution Time: ([\d.]+)/.exec(rows.map((row) => row['QUERY PLAN']).join('\n'))?.[1] ?? NaN);
    return { counts: counts.ms, ids: ids.ms, idsPlan: ids.plan, cards: cards.ms, planning: counts.planning + cards.planning, countedMs };
  });
}

/** Milliseconds to insert one blog of about 1,000 words (index and word counts kept by the write), and to change its text. */
async function writeCosts(db: Kysely<Database>, authorId: string) {
  const text = (seed: number) =>
    Array.from({ length: 1000 }, (_, i) => (i % 7 === 0 ? REAL_WORDS[(i * seed) % REAL_WORDS.length] : `w${((i * 7919 + seed * 104729) % MADE_UP_WORDS).toString(36)}`)).join(' ');
  const inserts: number[] = [];
  const updates: number[] = [];
  for (let i = 0; i < 20; i++) {
    const body = text(i + 1);
    let started = performance.now();
    const row = await db
      .insertInto('blogs')
      .values({ user_id: authorId, title: `Write cost ${i}`, body, body_text: body, html: `<p>${body}</p>`, excerpt: body.slice(0, 200), reading_minutes: 5, tags: ['travel'] })
      .returning('id')
      .executeTakeFirstOrThrow();
    inserts.push(performance.now() - started);
    const changed = text(i + 101);
    started = performance.now();
    await db.updateTable('blogs').set({ body: changed, body_text: changed, html: `<p>${changed}</p>` }).where('id', '=', row.id).execute();
    updates.push(performance.now() - started);
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  return { insertMs: median(inserts), updateMs: median(updates) };
}

// --- loads ---

async function load(name: string, url: string): Promise<LoadRow> {
  await autocannon({ url, connections: CONNECTIONS, duration: 2 });
  const result = await autocannon({ url, connections: CONNECTIONS, duration: SECONDS });
  const total = url.includes('/api/search') ? ((await (await fetch(url)).json()) as { total: number }).total : undefined;
  return report({ name, rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, non2xx: result.non2xx + result.errors, total });
}

/** The same search, each request the next of pages 1 to 20. */
async function loadPages(name: string, url: string): Promise<LoadRow> {
  let n = 0;
  const options = { url, connections: CONNECTIONS, requests: [{ setupRequest: (request: autocannon.Request) => ({ ...request, path: `${new URL(url).pathname}${new URL(url).search}&page=${1 + (n++ % 20)}` }) }] };
  await autocannon({ ...options, duration: 2 });
  const result = await autocannon({ ...options, duration: SECONDS });
  return report({ name, rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, non2xx: result.non2xx + result.errors });
}

function report(row: LoadRow): LoadRow {
  console.log(`${row.name}: ${row.rps.toFixed(0)} req/s, p50 ${row.p50} ms, p99 ${row.p99} ms, non-2xx ${row.non2xx}${row.total !== undefined ? `, total ${row.total}` : ''}`);
  if (row.non2xx > 0) throw new Error(`${row.name}: ${row.non2xx} answers were not 2xx`);
  return row;
}

/** A slow kind of search, one request at a time: its time, or how it failed (a 503 past the statement timeout). */
async function sequential(url: string, samples: number) {
  const times: number[] = [];
  const statuses: number[] = [];
  for (let i = 0; i < samples; i++) {
    const started = performance.now();
    const response = await fetch(url);
    await response.arrayBuffer();
    times.push(performance.now() - started);
    statuses.push(response.status);
  }
  times.sort((a, b) => a - b);
  return { term: decodeURIComponent(new URL(url).searchParams.get('searchTerm') ?? ''), p50: times[Math.floor(times.length / 2)]!, max: times.at(-1)!, statuses: [...new Set(statuses)] };
}

// --- report ---

function formatReport(r: {
  version: string;
  seedSeconds: number;
  shape: Awaited<ReturnType<typeof corpusShape>>;
  terms: Awaited<ReturnType<typeof pickTerms>>;
  rows: LoadRow[];
  phrase?: Awaited<ReturnType<typeof sequential>>;
  database: Awaited<ReturnType<typeof databaseTimes>>;
  writes: Awaited<ReturnType<typeof writeCosts>>;
}) {
  const bare = r.rows[0]!;
  const table = r.rows
    .map((row) => `| ${row.name} | ${row.rps.toFixed(0)} | ${(row.rps / bare.rps).toFixed(2)} | ${row.p50} | ${row.p99} | ${row.total?.toLocaleString('en') ?? ''} |`)
    .join('\n');
  return `# Search in text benchmark (bench/text-search.bench.ts)

Run ${startedAt.toISOString()} on ${os.cpus().length} CPU(s) (${os.cpus()[0]?.model ?? 'unknown'}), Node ${process.version}, ${r.version}.
${BLOGS.toLocaleString('en')} blogs of ${r.shape.words.toFixed(0)} words (${(r.shape.textBytes / 1024).toFixed(1)} KB of text) on average,
${r.shape.lexemes.toLocaleString('en')} distinct lexemes, seeded in ${r.seedSeconds.toFixed(0)} s. The app runs from source in production mode in its own
process with the response cache off (every answer computed); ${CONNECTIONS} concurrent readers (autocannon), ${SECONDS} s per
load after 2 s of warm-up. Load average ${loadAverages.start} at the start, ${os.loadavg()[0]!.toFixed(1)} at the end.

| load | req/s | vs bare | p50 ms | p99 ms | total |
|---|---|---|---|---|---|
${table}

${
    r.phrase
      ? `A phrase of two common words (\`${r.phrase.term}\`), one request at a time: p50 ${r.phrase.p50.toFixed(0)} ms, slowest ${r.phrase.max.toFixed(0)} ms
(statuses ${r.phrase.statuses.join(', ')}): a phrase is checked blog by blog on every blog holding both words.`
      : ''
  }

The common word's search in the database (EXPLAIN ANALYZE, warm): its totals from \`text_word_counts\` and \`title_word_counts\`
${r.database.counts.toFixed(2)} ms (the total counted through the index instead: ${r.database.countedMs.toFixed(1)} ms); the page's ids ${r.database.ids.toFixed(2)} ms;
the page as cards with their snippets (\`ts_headline\` over each text) ${r.database.cards.toFixed(2)} ms; planning the two ${r.database.planning.toFixed(2)} ms. A one-word search is these two
statements; one of several words (or a deep page) adds a transaction steered to the indexes with a timeout.

A write keeps the index and the word counts: inserting one blog of 1,000 words takes ${r.writes.insertMs.toFixed(1)} ms, changing its
text ${r.writes.updateMs.toFixed(1)} ms (medians of 20, one statement each).
`;
}

// --- database helpers ---

async function insertAuthor(db: Kysely<Database>): Promise<string> {
  const id = randomUUID();
  const now = new Date();
  await db.insertInto('user').values({ id, name: 'bench', email: `bench-${id}@example.com`, emailVerified: true, image: null, createdAt: now, updatedAt: now }).execute();
  return id;
}

async function databaseVersion(db: Kysely<Database>): Promise<string> {
  const { rows } = await sql<{ version: string }>`select version()`.execute(db);
  const version = rows[0]?.version.split(' on ')[0] ?? 'PostgreSQL';
  return KIND === 'pglite' ? `PGlite (${version})` : version;
}
