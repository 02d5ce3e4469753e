/**
 * Memory: the built server inside a memory cgroup of a given size, as a small machine would run
 * it, through the workload of issue 31, reporting peak and idle memory and requests per second.
 *
 *   - a first start in an empty DATA_DIR (embedded) or on an empty database (Postgres);
 *   - uploads of 1600 x 1000 PNGs, four at a time, each a blog; then Markdown posts (code blocks,
 *     lists, tables);
 *   - 20 s of anonymous reads at 50 connections over the home and list pages, blog pages,
 *     searches (page and API), the feed and the sitemap; then a signed-in load (the same pages
 *     and the session) for half as long;
 *   - idle for 15 s; then a later start of the same site, idle again.
 *
 * Every answer must be 2xx or 3xx. A run the kernel kills says in which phase it died.
 *
 *   BUILD_DIR=dist node --import tsx bench/memory.bench.ts      (needs `npm run build` and root, for the cgroup)
 *
 * MEMORY_BENCH_SIZES (default `256,512,unlimited`, in MB), MEMORY_BENCH_DATABASES (`embedded,postgres`),
 * MEMORY_BENCH_UPLOADS (100 embedded, 40 Postgres), MEMORY_BENCH_POSTS (300 embedded, 100 Postgres),
 * MEMORY_BENCH_SECONDS (20), MEMORY_BENCH_CONNECTIONS (50), MEMORY_BENCH_IDLE_SECONDS (15) scale it
 * down for a quick run. DATABASE_URL: a Postgres server of your own (a database is created and
 * dropped per run), else a throwaway cluster is started and stopped. It runs outside the cgroup:
 * the figures are the app's alone.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import sharp from 'sharp';
import { benchDatabase, builtAppEnv, builtServerEntry, freePort, root, type Cleanups } from './support/bench-processes.js';
import { createMemoryCgroup, processMemory, type MemoryCgroup } from './support/memory-cgroup.js';

const MB = 1024 * 1024;
const sizes = (process.env.MEMORY_BENCH_SIZES ?? '256,512,unlimited').split(',').map((size) => size.trim());
const databases = (process.env.MEMORY_BENCH_DATABASES ?? 'embedded,postgres').split(',').map((name) => name.trim());
const SECONDS = Number(process.env.MEMORY_BENCH_SECONDS ?? 20);
const CONNECTIONS = Number(process.env.MEMORY_BENCH_CONNECTIONS ?? 50);
const IDLE_SECONDS = Number(process.env.MEMORY_BENCH_IDLE_SECONDS ?? 15);
const uploadsFor = (database: string) => Number(process.env.MEMORY_BENCH_UPLOADS ?? (database === 'embedded' ? 100 : 40));
const postsFor = (database: string) => Number(process.env.MEMORY_BENCH_POSTS ?? (database === 'embedded' ? 300 : 100));

interface Row {
  database: string;
  size: string;
  firstStartSeconds?: number;
  firstStartPeakMb?: number;
  uploadsPerSecond?: number;
  readRps?: number;
  signedInRps?: number;
  peakMb?: number;
  cgroupPeakMb?: number;
  idleMb?: number;
  laterStartPeakMb?: number;
  laterIdleMb?: number;
  bad: number;
  died?: string;
}

class Died extends Error {}

const mb = (bytes: number | undefined) => (bytes === undefined || Number.isNaN(bytes) ? undefined : Math.round(bytes / MB));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Distinct pictures, so no upload is a copy of the one before: gradients with shapes, as PNG. */
async function pictures(count: number): Promise<Buffer[]> {
  const made: Buffer[] = [];
  for (let i = 0; i < count; i++) {
    const hue = (i * 47) % 360;
    const circles = Array.from({ length: 30 }, (_, j) => `<circle cx="${(j * 263 + i * 97) % 1600}" cy="${(j * 151 + i * 61) % 1000}" r="${20 + ((j * 13) % 90)}" fill="hsl(${(hue + j * 11) % 360},70%,${40 + (j % 5) * 8}%)" fill-opacity="0.7"/>`).join('');
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1600" height="1000"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="hsl(${hue},60%,45%)"/><stop offset="1" stop-color="hsl(${(hue + 120) % 360},60%,70%)"/></linearGradient></defs><rect width="100%" height="100%" fill="url(#g)"/>${circles}</svg>`;
    made.push(await sharp(Buffer.from(svg)).png().toBuffer());
  }
  return made;
}

function markdownPost(i: number): string {
  return [
    `Post ${i} is about **harbours** and _patience_, with a [link](https://example.com/${i}).`,
    '',
    '## What we saw',
    '',
    '- boats at anchor',
    '- gulls on the *breakwater*',
    '- [x] a task done',
    '',
    '| tide | hour |',
    '|---|---|',
    `| high | ${i % 24}:00 |`,
    '',
    '```js',
    `const tide = ${i};`,
    'export function next(hours) { return tide + hours * 2; }',
    '```',
    '',
    '```python',
    `def ebb(n):\n    return n - ${i}`,
    '```',
    '',
    'Paragraph. '.repeat(60),
  ].join('\n');
}

class Site {
  child!: ReturnType<MemoryCgroup['spawn']>;
  exited = false;
  /** How the process ended, when it did by itself: `killed (SIGKILL)` is the kernel's OOM killer in a cgroup. */
  ending = '';
  phase = 'first start';
  constructor(
    readonly cgroup: MemoryCgroup,
    readonly env: NodeJS.ProcessEnv,
    readonly port: number,
  ) {}

  get base() {
    return `http://localhost:${this.port}`;
  }

  async start(): Promise<number> {
    const started = performance.now();
    this.exited = false;
    // MEMORY_BENCH_SERVER_LOG=1: the server's own log on this process's output (with LOG_LEVEL in MEMORY_BENCH_APP_ENV).
    this.child = this.cgroup.spawn(process.execPath, [builtServerEntry()], { env: this.env, cwd: root, stdio: process.env.MEMORY_BENCH_SERVER_LOG ? 'inherit' : 'ignore' });
    this.child.on('exit', (code, signal) => {
      this.exited = true;
      if (this.phase === 'stopping') return;
      this.ending = signal ? `killed (${signal})` : `exited with ${code}`;
      console.log(`  the server ${this.ending} during: ${this.phase}`);
    });
    for (;;) {
      if (this.exited) throw new Died(this.phase);
      try {
        const response = await fetch(`${this.base}/api/health`);
        if (response.ok) break;
      } catch {
        // not listening yet
      }
      await sleep(100);
    }
    return (performance.now() - started) / 1000;
  }

  memory() {
    const own = processMemory(this.child.pid!);
    if (!own || this.exited) throw new Died(this.phase);
    return own;
  }

  async stop() {
    if (this.exited) return;
    this.phase = 'stopping';
    const gone = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.kill('SIGTERM');
    await Promise.race([gone, sleep(15_000)]);
    if (!this.exited) this.child.kill('SIGKILL');
  }

  check() {
    if (this.exited) throw new Died(this.phase);
  }
}

async function signUp(site: Site, n: number): Promise<string> {
  const response = await fetch(`${site.base}/api/auth/sign-up/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: site.base },
    body: JSON.stringify({ email: `memory-${n}-${randomBytes(4).toString('hex')}@example.com`, password: 'correct horse battery staple', name: `Writer ${n}` }),
  });
  if (!response.ok) throw new Error(`sign-up answered ${response.status}: ${await response.text()}`);
  return response.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .join('; ');
}

async function post(site: Site, cookie: string, title: string, body: string, image?: Buffer): Promise<string> {
  const form = new FormData();
  form.append('title', title);
  form.append('blog', body);
  if (image) form.append('image', new Blob([new Uint8Array(image)], { type: 'image/png' }), 'picture.png');
  let response: Response;
  try {
    response = await fetch(`${site.base}/api/blogs`, { method: 'POST', headers: { cookie, origin: site.base }, body: form });
  } catch (err) {
    site.check();
    throw err;
  }
  if (response.status !== 201) throw new Error(`creating a blog answered ${response.status}: ${await response.text()}`);
  return ((await response.json()) as { id: string }).id;
}

/** Runs `load` at CONNECTIONS; answers req/s and counts what was not 2xx/3xx. */
async function load(site: Site, requests: autocannon.Request[], seconds: number, headers: Record<string, string> = {}) {
  const result = await autocannon({ url: `http://127.0.0.1:${site.port}`, connections: CONNECTIONS, duration: seconds, requests, headers: { host: `localhost:${site.port}`, ...headers } });
  site.check();
  // autocannon counts a timeout among its errors too.
  const bad = result['4xx'] + result['5xx'] + result.errors;
  const why = bad ? ` (4xx ${result['4xx']}, 5xx ${result['5xx']}, timeouts ${result.timeouts}, errors ${result.errors - result.timeouts}; p99 ${result.latency.p99} ms)` : '';
  return { rps: result.requests.average, bad, why };
}

async function run(database: string, size: string, pictureSet: Buffer[], cleanups: Cleanups): Promise<Row> {
  const limit = size === 'unlimited' ? undefined : Number(size) * MB;
  const cgroup = createMemoryCgroup(limit);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-memory-'));
  const databaseUrl = database === 'postgres' ? await benchDatabase('bench_memory', cleanups) : '';
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    ...builtAppEnv(port, dataDir, databaseUrl),
    AUTH_REQUIRE_EMAIL_VERIFICATION: 'false',
    RATE_LIMIT_SCALE: '100000',
    ...(process.env.MEMORY_BENCH_APP_ENV ? (JSON.parse(process.env.MEMORY_BENCH_APP_ENV) as Record<string, string>) : {}),
  };
  const site = new Site(cgroup, env, port);
  const row: Row = { database, size, bad: 0 };
  console.log(`\n${database}, ${size}${limit ? ' MB' : ''}:`);
  try {
    row.firstStartSeconds = await site.start();
    row.firstStartPeakMb = mb(site.memory().hwmBytes);
    console.log(`  first start: ${row.firstStartSeconds.toFixed(1)} s, peak ${row.firstStartPeakMb} MB`);

    site.phase = 'uploads';
    const cookie = await signUp(site, 1);
    const uploads = uploadsFor(database);
    const ids: string[] = [];
    const uploadStarted = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        while (next < uploads) {
          const i = next++;
          ids.push(await post(site, cookie, `Harbour picture ${i}`, `A picture of the harbour, number ${i}.`, pictureSet[i % pictureSet.length]));
        }
      }),
    );
    row.uploadsPerSecond = uploads / ((performance.now() - uploadStarted) / 1000);
    console.log(`  ${uploads} uploads: ${row.uploadsPerSecond.toFixed(1)}/s, peak so far ${mb(site.memory().hwmBytes)} MB`);

    site.phase = 'Markdown posts';
    const posts = postsFor(database);
    next = 0;
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        while (next < posts) {
          const i = next++;
          ids.push(await post(site, cookie, `Harbour notes ${i}: tides and patience`, markdownPost(i)));
        }
      }),
    );
    console.log(`  ${posts} Markdown posts, peak so far ${mb(site.memory().hwmBytes)} MB`);

    site.phase = 'anonymous reads';
    const pick = (i: number) => ids[(i * 7919) % ids.length]!;
    const readPaths = [
      '/', '/?page=2', '/?sort=new', '/?sort=hot&page=3', '/api/blogs?page=1', '/api/blogs?page=4', '/api/blogs?page=9&sort=new',
      ...Array.from({ length: 20 }, (_, i) => `/viewBlog?id=${pick(i)}`),
      ...Array.from({ length: 5 }, (_, i) => `/api/blogs/${pick(i + 40)}`),
      '/search?searchTerm=harbour', '/search?searchTerm=tides&page=2', '/api/search?searchTerm=picture', '/api/search?searchTerm=notes&page=3',
      '/rss.xml', '/sitemap.xml', '/robots.txt',
    ];
    const reads = await load(site, readPaths.map((p) => ({ method: 'GET', path: p })), SECONDS);
    row.readRps = reads.rps;
    row.bad += reads.bad;
    console.log(`  anonymous reads: ${reads.rps.toFixed(0)} req/s, ${reads.bad} not 2xx/3xx${reads.why}, peak so far ${mb(site.memory().hwmBytes)} MB`);

    site.phase = 'signed-in load';
    const signedInPaths = ['/', '/?page=2', '/api/blogs?page=1', '/api/auth/get-session', '/drafts', ...Array.from({ length: 10 }, (_, i) => `/viewBlog?id=${pick(i + 80)}`)];
    const signedIn = await load(site, signedInPaths.map((p) => ({ method: 'GET', path: p })), Math.max(1, Math.round(SECONDS / 2)), { cookie });
    row.signedInRps = signedIn.rps;
    row.bad += signedIn.bad;
    console.log(`  signed-in load: ${signedIn.rps.toFixed(0)} req/s, ${signedIn.bad} not 2xx/3xx${signedIn.why}`);

    site.phase = 'idle';
    await sleep(IDLE_SECONDS * 1000);
    const afterIdle = site.memory();
    row.peakMb = mb(afterIdle.hwmBytes);
    row.idleMb = mb(afterIdle.rssBytes);
    row.cgroupPeakMb = mb(cgroup.stats().peakBytes);
    console.log(`  idle ${IDLE_SECONDS} s later: ${row.idleMb} MB (peak ${row.peakMb} MB; the cgroup's, page cache included: ${row.cgroupPeakMb} MB)`);

    await site.stop();
    site.phase = 'later start';
    await site.start();
    row.laterStartPeakMb = mb(site.memory().hwmBytes);
    await sleep(Math.min(IDLE_SECONDS, 5) * 1000);
    row.laterIdleMb = mb(site.memory().rssBytes);
    console.log(`  later start: peak ${row.laterStartPeakMb} MB, idle ${row.laterIdleMb} MB`);
  } catch (err) {
    if (!(err instanceof Died)) throw err;
    row.died = `${site.ending || 'died'} during ${err.message}`;
    const stats = cgroup.stats();
    console.log(`  ${row.died} (cgroup peak ${mb(stats.peakBytes)} MB, OOM kills ${stats.oomKills})`);
  } finally {
    await site.stop();
    await cgroup.remove();
    rmSync(dataDir, { recursive: true, force: true });
  }
  return row;
}

async function main() {
  builtServerEntry();
  const cleanups: Cleanups = [];
  const rows: Row[] = [];
  try {
    const pictureSet = await pictures(12);
    console.log(`pictures: 1600 x 1000 PNG, ${Math.round(pictureSet.reduce((sum, p) => sum + p.length, 0) / pictureSet.length / 1024)} KB on average`);
    for (const database of databases) {
      for (const size of sizes) rows.push(await run(database, size, pictureSet, cleanups));
    }
  } finally {
    for (const cleanup of cleanups.reverse()) await cleanup();
  }
  const cell = (value: number | undefined, digits = 0) => (value === undefined ? '–' : value.toFixed(digits));
  console.log(`\n| database | machine | first start | first-start peak | uploads/s | reads req/s | signed-in req/s | peak | idle | later start peak / idle | not 2xx/3xx | outcome |`);
  console.log('|---|---|---|---|---|---|---|---|---|---|---|---|');
  for (const row of rows) {
    console.log(
      `| ${row.database} | ${row.size === 'unlimited' ? 'unlimited' : `${row.size} MB`} | ${cell(row.firstStartSeconds, 1)} s | ${cell(row.firstStartPeakMb)} MB | ${cell(row.uploadsPerSecond, 1)} | ${cell(row.readRps)} | ${cell(row.signedInRps)} | ${cell(row.peakMb)} MB | ${cell(row.idleMb)} MB | ${cell(row.laterStartPeakMb)} / ${cell(row.laterIdleMb)} MB | ${row.bad} | ${row.died ?? 'served'} |`,
    );
  }
}

await main();
