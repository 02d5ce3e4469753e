/**
 * Soak benchmark: mixed traffic against one app process for a long time, then checks that
 * nothing was lost, duplicated or leaked.
 *  - readers page through the home list, open blogs and search;
 *  - writers create blogs with images, edit them (sometimes with a new image) and delete some;
 *  - voters vote up and down (and move their votes).
 * It reports the count of 5xx answers (must be 0), whether every acknowledged write is in the
 * database at the end (and nothing else), whether every blog's counters equal `count(*)` of its
 * votes, and the server's resident memory after the first minute and at the end (must stay within
 * 15 %).
 *
 *   node --import tsx bench/soak.bench.ts                          (10 minutes on Postgres, then PGlite)
 *   SOAK_MINUTES=1 SOAK_DB=pglite node --import tsx bench/soak.bench.ts
 *   DATABASE_URL=postgres://... node --import tsx bench/soak.bench.ts   (Postgres on that server)
 *
 * SOAK_MINUTES (default 10) sets each run's length; SOAK_DB is `postgres`, `pglite` or
 * `postgres,pglite` (default). The app runs from source (tsx) unless BUILD_DIR names a build.
 * Without DATABASE_URL a throwaway Postgres cluster is started and stopped. DATA_DIRs are
 * temporary folders removed at the end. Figures go to stdout, and to BENCH_OUT if set.
 * The load comes from one address, so the app runs with `RATE_LIMIT_SCALE` raised.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import sharp from 'sharp';
import { openDatabase } from '../src/server/db/database.js';
import { benchDatabase, freePort, root, start, stop, waitFor, type Cleanups } from './support/bench-processes.js';

const MINUTES = Number(process.env.SOAK_MINUTES ?? 10);
const KINDS = (process.env.SOAK_DB ?? 'postgres,pglite').split(',').map((kind) => kind.trim()) as Array<'postgres' | 'pglite'>;
const READERS = 6;
const WRITERS = 3;
const VOTERS = 6;
const SAMPLE_EVERY_MS = 5_000;
const WORDS = ['apple', 'banana', 'cherry', 'river', 'mountain', 'garden', 'winter', 'coffee', 'travel', 'music', 'science', 'history'];

if (!Number.isFinite(MINUTES) || MINUTES <= 0) throw new Error('SOAK_MINUTES must be a positive number');
for (const kind of KINDS) if (kind !== 'postgres' && kind !== 'pglite') throw new Error(`SOAK_DB: unknown database ${kind}`);

interface RunResult {
  kind: string;
  minutes: number;
  requests: number;
  byStatus: Record<string, number>;
  serverErrors: number;
  networkErrors: number;
  latencyMs: Record<'read' | 'search' | 'write' | 'vote', { p50: number; p99: number; count: number }>;
  rssAfterFirstMinuteMb: number;
  rssAtEndMb: number;
  rssGrowthPercent: number;
  blogsAcknowledged: number;
  blogsDeleted: number;
  lostOrWrongWrites: number;
  unexpectedRows: number;
  votesMismatched: number;
  countersMismatched: number;
  missingImages: number;
}

async function main() {
  const report: string[] = [];
  for (const kind of KINDS) {
    const result = await soak(kind);
    const text = format(result);
    console.log(text);
    report.push(text);
  }
  const out = process.env.BENCH_OUT;
  if (out) {
    mkdirSync(path.dirname(out), { recursive: true });
    writeFileSync(out, report.join('\n\n'));
    console.log(`Written to ${out}`);
  }
}

async function soak(kind: 'postgres' | 'pglite'): Promise<RunResult> {
  const cleanups: Cleanups = [];
  try {
    const databaseUrl = kind === 'postgres' ? await benchDatabase('soak_bench', cleanups) : undefined;
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'soak-bench-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const port = await freePort();
    const buildDir = process.env.BUILD_DIR ? path.resolve(root, process.env.BUILD_DIR) : undefined;
    const mainJs = buildDir ? path.join(buildDir, 'server/main.js') : path.join(root, 'src/server/main.ts');
    if (!existsSync(mainJs)) throw new Error(`No ${mainJs}: build first, or unset BUILD_DIR to run from source.`);
    const app = start(process.execPath, buildDir ? [mainJs] : ['--import', 'tsx', mainJs], {
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
      PUBLIC_URL: `http://localhost:${port}`,
      AUTH_SECRET: randomBytes(32).toString('hex'),
      AUTH_REQUIRE_EMAIL_VERIFICATION: 'false',
      // Errors only, shown: a 5xx must come with its reason.
      LOG_LEVEL: 'error',
      AI_API_KEY: '',
      SMTP_URL: '',
    }, { showLog: true });
    cleanups.push(() => stop(app));
    const base = `http://127.0.0.1:${port}`;
    await waitFor(`${base}/api/health`, 120_000);
    console.log(`[${kind}] app ready (pid ${app.pid}); ${MINUTES} min of traffic: ${READERS} readers, ${WRITERS} writers, ${VOTERS} voters.`);

    const client = new SoakClient(base, `http://localhost:${port}`);
    const writers = await Promise.all(Array.from({ length: WRITERS }, (_, i) => client.signUp(`writer${i}`)));
    const voters = await Promise.all(Array.from({ length: VOTERS }, (_, i) => client.signUp(`voter${i}`)));
    const images = await Promise.all(['#3366cc', '#cc6633', '#33cc66'].map((colour, i) => sharp({ create: { width: 64 + i, height: 48, channels: 3, background: colour } }).png().toBuffer()));

    const state = new WrittenState();
    const startedAt = Date.now();
    const endAt = startedAt + MINUTES * 60_000;
    const rss: Array<{ atMs: number; mb: number }> = [];
    const sampler = setInterval(() => {
      const mb = residentMb(app.pid!);
      if (mb !== undefined) rss.push({ atMs: Date.now() - startedAt, mb });
    }, SAMPLE_EVERY_MS);
    let lastProgress = Date.now();
    const progress = setInterval(() => {
      if (Date.now() - lastProgress < 60_000) return;
      lastProgress = Date.now();
      console.log(`[${kind}] ${Math.round((Date.now() - startedAt) / 60_000)} min: ${client.requests} requests, ${client.serverErrors} 5xx, ${state.blogs.size} live blogs, RSS ${rss.at(-1)?.mb.toFixed(0)} MB`);
    }, 5_000);

    const running = () => Date.now() < endAt;
    await Promise.all([
      ...Array.from({ length: READERS }, () => readerLoop(client, state, running)),
      ...writers.map((writer, i) => writerLoop(client, state, writer, images, i, running)),
      ...voters.map((voter) => voterLoop(client, state, voter, running)),
    ]);
    clearInterval(sampler);
    clearInterval(progress);
    const endRss = residentMb(app.pid!) ?? rss.at(-1)?.mb ?? 0;
    const firstMinute = rss.find((sample) => sample.atMs >= 60_000) ?? rss.at(-1) ?? { mb: endRss };

    // Stop the app, then read the database directly (PGlite allows one process at a time).
    await stop(app);
    const database = await openDatabase({ databaseUrl, dataDir });
    cleanups.push(() => database.close());
    const verdict = await verify(database.db, state, voters.map((voter) => voter.id), dataDir);

    return {
      kind: kind === 'postgres' ? 'Postgres' : 'PGlite',
      minutes: MINUTES,
      requests: client.requests,
      byStatus: client.byStatus,
      serverErrors: client.serverErrors,
      networkErrors: client.networkErrors,
      latencyMs: client.latencies(),
      rssAfterFirstMinuteMb: firstMinute.mb,
      rssAtEndMb: endRss,
      rssGrowthPercent: ((endRss - firstMinute.mb) / firstMinute.mb) * 100,
      blogsAcknowledged: state.created,
      blogsDeleted: state.deleted.size,
      ...verdict,
    };
  } finally {
    for (const step of cleanups.reverse()) await step();
  }
}

interface Account {
  id: string;
  cookie: string;
}

/** What the server acknowledged: the truth the database must match at the end. */
class WrittenState {
  /** Live blogs: id → last acknowledged title, image or not, and owner. */
  blogs = new Map<string, { title: string; owner: string }>();
  deleted = new Set<string>();
  created = 0;
  /** `${voterId}:${blogId}` → the direction the voter's vote has after its last acknowledged vote. */
  votes = new Map<string, 'up' | 'down'>();
  ids(): string[] {
    return [...this.blogs.keys()];
  }
}

class SoakClient {
  requests = 0;
  serverErrors = 0;
  networkErrors = 0;
  byStatus: Record<string, number> = {};
  private readonly times: Record<'read' | 'search' | 'write' | 'vote', number[]> = { read: [], search: [], write: [], vote: [] };

  constructor(
    private readonly base: string,
    private readonly origin: string,
  ) {}

  async send(kind: 'read' | 'search' | 'write' | 'vote', url: string, init: RequestInit = {}): Promise<Response | undefined> {
    const started = performance.now();
    try {
      const response = await fetch(`${this.base}${url}`, { ...init, headers: { origin: this.origin, ...(init.headers as Record<string, string>) } });
      this.requests++;
      this.byStatus[response.status] = (this.byStatus[response.status] ?? 0) + 1;
      if (response.status >= 500) {
        this.serverErrors++;
        console.error(`5xx: ${init.method ?? 'GET'} ${url} → ${response.status} ${await response.clone().text()}`);
      }
      this.times[kind].push(performance.now() - started);
      return response;
    } catch (err) {
      this.networkErrors++;
      console.error(`network error: ${init.method ?? 'GET'} ${url}: ${(err as Error).message}`);
      return undefined;
    }
  }

  async signUp(name: string): Promise<Account> {
    const email = `${name}-${randomBytes(4).toString('hex')}@soak.example`;
    const response = await this.send('write', '/api/auth/sign-up/email', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: 'correct horse battery', name }),
    });
    if (response?.status !== 200) throw new Error(`sign-up failed: ${response?.status} ${await response?.text()}`);
    const body = (await response.json()) as { user: { id: string } };
    return { id: body.user.id, cookie: response.headers.getSetCookie().map((cookie) => cookie.split(';')[0]).join('; ') };
  }

  latencies() {
    const summary = (values: number[]) => {
      const sorted = [...values].sort((a, b) => a - b);
      const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
      return { p50: at(0.5), p99: at(0.99), count: sorted.length };
    };
    return { read: summary(this.times.read), search: summary(this.times.search), write: summary(this.times.write), vote: summary(this.times.vote) };
  }
}

const pick = <T>(items: T[]): T | undefined => items[Math.floor(Math.random() * items.length)];

async function readerLoop(client: SoakClient, state: WrittenState, running: () => boolean) {
  while (running()) {
    const roll = Math.random();
    if (roll < 0.4) {
      const pages = Math.max(1, Math.ceil(state.blogs.size / 5));
      await drain(await client.send('read', `/api/blogs?page=${1 + Math.floor(Math.random() * pages)}`));
    } else if (roll < 0.7) {
      const id = pick(state.ids()) ?? '00000000-0000-4000-8000-000000000000';
      await drain(await client.send('read', `/api/blogs/${id}`));
    } else {
      const term = Array.from({ length: 1 + Math.floor(Math.random() * 3) }, () => pick(WORDS)).join(' ');
      await drain(await client.send('search', `/api/search?searchTerm=${encodeURIComponent(term)}`));
    }
  }
}

async function writerLoop(client: SoakClient, state: WrittenState, writer: Account, images: Buffer[], index: number, running: () => boolean) {
  let serial = 0;
  const own = () => [...state.blogs].filter(([, blog]) => blog.owner === writer.id).map(([id]) => id);
  const form = (title: string, withImage: boolean) => {
    const data = new FormData();
    data.append('title', title);
    data.append('blog', `Soak test blog written by writer ${index}. ${'Some text. '.repeat(20)}`);
    if (withImage) data.append('image', new Blob([new Uint8Array(pick(images)!)], { type: 'image/png' }), 'image.png');
    return data;
  };
  while (running()) {
    const mine = own();
    const roll = Math.random();
    if (mine.length < 3 || roll < 0.45) {
      const title = `${pick(WORDS)} ${pick(WORDS)} w${index}-${serial++}`;
      const response = await client.send('write', '/api/blogs', { method: 'POST', headers: { cookie: writer.cookie }, body: form(title, Math.random() < 0.7) });
      if (response?.status === 201) {
        const blog = (await response.json()) as { id: string };
        state.blogs.set(blog.id, { title, owner: writer.id });
        state.created++;
      } else await drain(response);
    } else if (roll < 0.85) {
      const id = pick(mine)!;
      const title = `${pick(WORDS)} edited w${index}-${serial++}`;
      const response = await client.send('write', `/api/blogs/${id}`, { method: 'PATCH', headers: { cookie: writer.cookie }, body: form(title, Math.random() < 0.5) });
      if (response?.status === 200) state.blogs.set(id, { title, owner: writer.id });
      await drain(response);
    } else {
      const id = pick(mine)!;
      const response = await client.send('write', `/api/blogs/${id}`, { method: 'DELETE', headers: { cookie: writer.cookie } });
      if (response?.status === 204) {
        state.blogs.delete(id);
        state.deleted.add(id);
      }
      await drain(response);
    }
  }
}

async function voterLoop(client: SoakClient, state: WrittenState, voter: Account, running: () => boolean) {
  while (running()) {
    const id = pick(state.ids());
    if (!id) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      continue;
    }
    const direction = Math.random() < 0.6 ? 'up' : 'down';
    const response = await client.send('vote', `/api/blogs/${id}/vote`, {
      method: 'PUT',
      headers: { cookie: voter.cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ direction }),
    });
    if (response?.status === 200) {
      const result = (await response.json()) as { myVote: 'up' | 'down' | null };
      if (result.myVote) state.votes.set(`${voter.id}:${id}`, result.myVote);
    } else await drain(response);
  }
}

async function drain(response: Response | undefined) {
  if (response) await response.arrayBuffer();
}

async function verify(db: Awaited<ReturnType<typeof openDatabase>>['db'], state: WrittenState, voterIds: string[], dataDir: string) {
  const rows = await db.selectFrom('blogs').select(['id', 'title', 'image_key']).execute();
  const byId = new Map(rows.map((row) => [row.id, row]));
  let lostOrWrongWrites = 0;
  for (const [id, blog] of state.blogs) if (byId.get(id)?.title !== blog.title) lostOrWrongWrites++;
  for (const id of state.deleted) if (byId.has(id)) lostOrWrongWrites++;
  // Nothing the server did not acknowledge (a duplicate create, a half-written blog).
  const unexpectedRows = rows.filter((row) => !state.blogs.has(row.id)).length;

  const votes = await db.selectFrom('votes').select(['user_id', 'blog_id', 'direction']).where('user_id', 'in', voterIds).execute();
  const actual = new Map(votes.map((vote) => [`${vote.user_id}:${vote.blog_id}`, vote.direction]));
  let votesMismatched = 0;
  for (const [key, direction] of state.votes) {
    const blogId = key.split(':')[1]!;
    if (state.blogs.has(blogId) && actual.get(key) !== direction) votesMismatched++;
  }
  for (const key of actual.keys()) if (!state.votes.has(key)) votesMismatched++;

  const counters = await sql<{ mismatched: number }>`
    select count(*)::int as mismatched from blogs b
    where b.upvotes <> (select count(*) from votes v where v.blog_id = b.id and v.direction = 'up')
       or b.downvotes <> (select count(*) from votes v where v.blog_id = b.id and v.direction = 'down')
       or b.rating <> b.upvotes - b.downvotes`.execute(db);
  const missingImages = rows.filter((row) => row.image_key && !existsSync(path.join(dataDir, 'uploads', row.image_key))).length;
  return { lostOrWrongWrites, unexpectedRows, votesMismatched, countersMismatched: counters.rows[0]!.mismatched, missingImages };
}

function residentMb(pid: number): number | undefined {
  try {
    const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? Number(kb) / 1024 : undefined;
  } catch {
    return undefined;
  }
}

function format(r: RunResult): string {
  const ok = (pass: boolean) => (pass ? 'yes' : '**NO**');
  const l = r.latencyMs;
  return [
    `### ${r.kind}, ${r.minutes} min`,
    '',
    '| measure | result |',
    '|---|---|',
    `| requests | ${r.requests.toLocaleString('en')} (${Object.entries(r.byStatus).map(([status, count]) => `${status}: ${count}`).join(', ')}) |`,
    `| 5xx answers / network errors | ${r.serverErrors} / ${r.networkErrors} |`,
    `| latency p50 / p99: reads, searches, writes, votes | ${[l.read, l.search, l.write, l.vote].map((s) => `${s.p50.toFixed(0)} / ${s.p99.toFixed(0)} ms`).join('; ')} |`,
    `| blogs created / deleted (acknowledged) | ${r.blogsAcknowledged} / ${r.blogsDeleted} |`,
    `| every acknowledged write there, nothing else | ${ok(r.lostOrWrongWrites === 0 && r.unexpectedRows === 0)} (${r.lostOrWrongWrites} lost or wrong, ${r.unexpectedRows} unexpected rows) |`,
    `| votes as last acknowledged | ${ok(r.votesMismatched === 0)} (${r.votesMismatched} mismatched) |`,
    `| counters equal \`count(*)\` of votes | ${ok(r.countersMismatched === 0)} (${r.countersMismatched} blogs off) |`,
    `| every blog's image file present | ${ok(r.missingImages === 0)} (${r.missingImages} missing) |`,
    `| resident memory after 1 min / at end | ${r.rssAfterFirstMinuteMb.toFixed(0)} MB / ${r.rssAtEndMb.toFixed(0)} MB (${r.rssGrowthPercent >= 0 ? '+' : ''}${r.rssGrowthPercent.toFixed(1)} %, within 15 %: ${ok(Math.abs(r.rssGrowthPercent) <= 15)}) |`,
  ].join('\n');
}

// Last, so the classes above are initialised before the run starts.
await main();
