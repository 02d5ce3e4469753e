/**
 * Imports of a Ghost JSON export and a WordPress WXR export of 10,000 posts each (about 150 MB
 * each with the default 14 kB of HTML per post: the size of issue 42's attack), into an empty
 * site on the embedded database, as a 512 MB machine runs them (`MEMORY_LIMIT_MB=512`):
 *
 * - from the command line (`npm run import`, the built CLI): a dry run, the import, a second run
 *   that finds everything imported;
 * - from the `/import` page (the built server, a moderator uploading the file): a dry run, then
 *   the import.
 *
 * For each: the time, posts per second and the process's peak resident memory (`VmHWM`, which is
 * what a machine's memory limit kills on). Every post is counted in the report.
 *
 * Run after `npm run build`: node --import tsx bench/import.bench.ts [posts] [kB of HTML per post]
 * `BENCH_FORMATS=ghost` or `wordpress` runs one format; `BENCH_VIA=cli` or `page` one way;
 * `BENCH_MEMORY_LIMIT_MB` another budget (empty: none, the machine's); `BENCH_AGAIN=0` leaves out the second run, `BENCH_DRY=0` the dry runs,
 * `BENCH_REAL=0` the imports that write (each takes about 25 minutes on a loaded 2-core machine).
 */
import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream, mkdtempSync, openAsBlob, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import { builtServerEntry, freePort, waitFor } from './support/bench-processes.js';

const POSTS = Number(process.argv[2] ?? 10_000);
const POST_KB = Number(process.argv[3] ?? 14);
const AUTHORS = 20;
const MEMORY_LIMIT_MB = process.env.BENCH_MEMORY_LIMIT_MB ?? '512';
const FORMATS = (process.env.BENCH_FORMATS ?? 'ghost,wordpress').split(',') as Array<'ghost' | 'wordpress'>;
const VIA = (process.env.BENCH_VIA ?? 'cli,page').split(',');
const MB = 1024 * 1024;
const mb = (bytes: number) => `${Math.round(bytes / MB)} MB`;

/** One post's HTML: headings, paragraphs with inline markup and a link, a list, a quote, about `POST_KB` kB. */
function postHtml(i: number): string {
  const paragraph = `<p>Lorem ipsum dolor sit amet, <strong>consectetur</strong> adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua. Post ${i}, <a href="https://example.org/${i}">a link</a>.</p>\n`;
  const parts = [`<h2>Part ${i}</h2>\n`, '<ul><li>one</li><li>two</li></ul>\n', '<blockquote><p>A quote.</p></blockquote>\n'];
  while (parts.join('').length < POST_KB * 1024) parts.push(paragraph);
  return parts.join('');
}

const day = (i: number) => new Date(Date.UTC(2015, 0, 1) + i * 3_600_000);

async function writeFile(file: string, pieces: () => Iterable<string>): Promise<void> {
  const out = createWriteStream(file);
  for (const text of pieces()) if (!out.write(text)) await once(out, 'drain');
  out.end();
  await once(out, 'close');
}

/** Ghost 5's Labs → Export layout: tables in alphabetical order, so `posts` before the `users` and links that name their authors. */
function* ghostJson(): Iterable<string> {
  yield `{"db":[{"meta":{"exported_on":${Date.UTC(2024, 0, 1)},"version":"5.82.0"},"data":{"posts":[`;
  for (let i = 1; i <= POSTS; i++) {
    const post = {
      id: `post${i}`,
      uuid: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
      title: `Post number ${i}`,
      slug: `post-${i}`,
      mobiledoc: null,
      lexical: null,
      html: postHtml(i),
      type: 'post',
      status: i % 10 === 0 ? 'draft' : 'published',
      visibility: 'public',
      created_at: day(i).toISOString(),
      updated_at: day(i).toISOString(),
      published_at: i % 10 === 0 ? null : day(i).toISOString(),
    };
    yield `${i > 1 ? ',' : ''}${JSON.stringify(post)}`;
  }
  yield '],"posts_authors":[';
  for (let i = 1; i <= POSTS; i++) yield `${i > 1 ? ',' : ''}{"id":"pa${i}","post_id":"post${i}","author_id":"user${i % AUTHORS}","sort_order":0}`;
  yield '],"posts_tags":[';
  for (let i = 1; i <= POSTS; i++) yield `${i > 1 ? ',' : ''}{"id":"pt${i}","post_id":"post${i}","tag_id":"tag${i % 50}","sort_order":0}`;
  yield '],"roles":[{"id":"r1","name":"Owner"}],"roles_users":[{"id":"ru1","role_id":"r1","user_id":"user0"}],"tags":[';
  for (let t = 0; t < 50; t++) yield `${t > 0 ? ',' : ''}{"id":"tag${t}","name":"Tag ${t}","slug":"tag-${t}"}`;
  yield '],"users":[';
  for (let a = 0; a < AUTHORS; a++) yield `${a > 0 ? ',' : ''}{"id":"user${a}","name":"Author ${a}","email":"author${a}@bench.example"}`;
  yield ']}}]}\n';
}

function* wxr(): Iterable<string> {
  yield `<?xml version="1.0" encoding="UTF-8" ?>\n<rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:wp="http://wordpress.org/export/1.2/">\n<channel>\n<title>Bench</title>\n<link>https://bench.example</link>\n`;
  for (let a = 0; a < AUTHORS; a++) {
    yield `<wp:author><wp:author_login><![CDATA[author${a}]]></wp:author_login><wp:author_email><![CDATA[author${a}@bench.example]]></wp:author_email><wp:author_display_name><![CDATA[Author ${a}]]></wp:author_display_name></wp:author>\n`;
  }
  for (let i = 1; i <= POSTS; i++) {
    const date = day(i).toISOString().replace('T', ' ').slice(0, 19);
    yield `<item><title><![CDATA[Post number ${i}]]></title><dc:creator><![CDATA[author${i % AUTHORS}]]></dc:creator>` +
      `<content:encoded><![CDATA[${postHtml(i)}[gallery ids="1,2"]]]></content:encoded>` +
      `<wp:post_id>${i}</wp:post_id><wp:post_date_gmt><![CDATA[${date}]]></wp:post_date_gmt><wp:status><![CDATA[${i % 10 === 0 ? 'draft' : 'publish'}]]></wp:status><wp:post_type><![CDATA[post]]></wp:post_type>` +
      `<category domain="category" nicename="c${i % 7}"><![CDATA[Category ${i % 7}]]></category><category domain="post_tag" nicename="t${i % 50}"><![CDATA[tag ${i % 50}]]></category>` +
      `<wp:comment><wp:comment_id>${i}</wp:comment_id><wp:comment_author><![CDATA[Reader]]></wp:comment_author><wp:comment_author_email><![CDATA[reader${i % 100}@bench.example]]></wp:comment_author_email><wp:comment_date_gmt><![CDATA[${date}]]></wp:comment_date_gmt><wp:comment_content><![CDATA[Nice post ${i}.]]></wp:comment_content><wp:comment_approved><![CDATA[1]]></wp:comment_approved><wp:comment_type><![CDATA[comment]]></wp:comment_type><wp:comment_parent>0</wp:comment_parent></wp:comment>` +
      `</item>\n`;
  }
  yield '</channel>\n</rss>\n';
}

/** Loaded by `--import` into the CLI (and the process it restarts as, with the budget's flags): its peak resident memory at exit. */
const RECORDER = `data:text/javascript,${encodeURIComponent(`
import { readFileSync, writeFileSync } from 'node:fs';
process.on('exit', () => {
  const hwm = Number(/VmHWM:\\s+(\\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))[1]) * 1024;
  const cpu = process.cpuUsage();
  writeFileSync(process.env.RECORD_TO, JSON.stringify({ hwm, cpuSeconds: (cpu.user + cpu.system) / 1e6, execArgv: process.execArgv }));
});
`)}`;

const budgetEnv = (): Record<string, string> => (MEMORY_LIMIT_MB ? { MEMORY_LIMIT_MB } : {});

interface Run {
  name: string;
  seconds: number;
  /** The import process's own CPU time, where known: on a shared machine, wall time says more about the neighbours. */
  cpuSeconds?: number;
  peak: number;
  counts: string;
}

async function viaCli(buildDir: string, work: string, file: string, dryRun: boolean, name: string): Promise<Run> {
  const record = path.join(work, 'record.json');
  const started = performance.now();
  const result = await promisify(execFile)(process.execPath, ['--import', RECORDER, path.join(buildDir, 'server/portability/import/import.cli.js'), file, ...(dryRun ? ['--dry-run'] : [])], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, DATA_DIR: path.join(work, 'data'), AUTH_SECRET: 'x'.repeat(32), RECORD_TO: record, ...budgetEnv() },
    maxBuffer: 256 * MB,
  }).catch((error: { stdout?: string; stderr?: string; code?: number }) => {
    throw new Error(`the import exited ${error.code}: ${error.stderr?.slice(0, 2000)}`);
  });
  const seconds = (performance.now() - started) / 1000;
  const recorded = JSON.parse(readFileSync(record, 'utf8')) as { hwm: number; cpuSeconds: number };
  const counts = /^ {2}posts: .*$/m.exec(result.stdout)?.[0].trim() ?? '?';
  const named = result.stdout.split('\n').filter((line) => /^(would import|imported|unchanged|failed|skipped)\t/.test(line)).length;
  return { name, seconds, cpuSeconds: recorded.cpuSeconds, peak: recorded.hwm, counts: `${counts}; ${named} posts named one by one` };
}

function hwmOf(pid: number): number {
  return Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) * 1024;
}

/** The built server with a moderator; each upload is one run, its peak the server's `VmHWM` after it (it only grows). */
async function viaPage(work: string) {
  const port = await freePort();
  const email = 'moderator@bench.example';
  const server = spawn(process.execPath, [builtServerEntry()], {
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: path.join(work, 'page-data'),
      PUBLIC_URL: `http://localhost:${port}`,
      AUTH_SECRET: 'x'.repeat(32),
      AUTH_REQUIRE_EMAIL_VERIFICATION: 'false',
      MODERATOR_EMAILS: email,
      LOG_LEVEL: 'warn',
      RATE_LIMIT_SCALE: '100000',
      ...budgetEnv(),
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  await waitFor(`${base}/api/health`, 180_000);
  const signUp = await fetch(`${base}/api/auth/sign-up/email`, {
    method: 'POST',
    headers: { origin: `http://localhost:${port}`, 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: 'correct horse battery', name: 'moderator' }),
  });
  if (signUp.status !== 200) throw new Error(`sign-up answered ${signUp.status}`);
  const cookie = signUp.headers.getSetCookie().map((value) => value.split(';')[0]).join('; ');
  const upload = async (file: string, dryRun: boolean, name: string): Promise<Run> => {
    const form = new FormData();
    form.append('dryRun', String(dryRun));
    form.append('file', await openAsBlob(file), path.basename(file));
    const started = performance.now();
    const response = await fetch(`${base}/api/imports`, { method: 'POST', headers: { cookie, origin: `http://localhost:${port}` }, body: form });
    if (response.status !== 202) throw new Error(`POST /api/imports answered ${response.status}: ${await response.text()}`);
    const { id } = (await response.json()) as { id: string };
    for (;;) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      const job = (await (await fetch(`${base}/api/imports/${id}`, { headers: { cookie } })).json()) as {
        state: string;
        error: unknown;
        report: { posts: { imported: number; unchanged: number; failed: number; skipped: number } } | null;
      };
      if (job.state === 'running') continue;
      if (job.state !== 'done') throw new Error(`the import failed: ${JSON.stringify(job.error)}`);
      const p = job.report!.posts;
      return { name, seconds: (performance.now() - started) / 1000, peak: hwmOf(server.pid!), counts: `posts: ${p.imported} ${dryRun ? 'would be ' : ''}imported, ${p.unchanged} unchanged, ${p.failed} failed, ${p.skipped} skipped` };
    }
  };
  const stop = async () => {
    server.kill('SIGTERM');
    await once(server, 'exit');
  };
  return { upload, stop, startPeak: hwmOf(server.pid!) };
}

function print(run: Run) {
  const cpu = run.cpuSeconds === undefined ? '' : ` (${run.cpuSeconds.toFixed(0)} s of CPU: ${Math.round(POSTS / run.cpuSeconds)} posts per CPU second)`;
  console.log(`  ${run.name}: ${run.seconds.toFixed(1)} s, ${Math.round(POSTS / run.seconds)} posts/s${cpu}, peak RSS ${mb(run.peak)}; ${run.counts}`);
}

async function main() {
  const buildDir = path.dirname(path.dirname(builtServerEntry()));
  const work = mkdtempSync(path.join(os.tmpdir(), 'import-bench-'));
  try {
    console.log(`${POSTS} posts of ${POST_KB} kB of HTML; MEMORY_LIMIT_MB=${MEMORY_LIMIT_MB || '(unset)'}; Node ${process.version}; built files in ${path.relative(process.cwd(), buildDir) || buildDir}`);
    for (const format of FORMATS) {
      const file = path.join(work, format === 'ghost' ? 'export.ghost.json' : 'export.xml');
      await writeFile(file, format === 'ghost' ? ghostJson : wxr);
      console.log(`${format === 'ghost' ? 'Ghost JSON' : 'WordPress WXR'}: ${mb(statSync(file).size)}`);
      if (VIA.includes('cli')) {
        rmSync(path.join(work, 'data'), { recursive: true, force: true });
        if (process.env.BENCH_DRY !== '0') print(await viaCli(buildDir, work, file, true, 'npm run import -- --dry-run'));
        if (process.env.BENCH_REAL !== '0') print(await viaCli(buildDir, work, file, false, 'npm run import'));
        if (process.env.BENCH_AGAIN !== '0' && process.env.BENCH_REAL !== '0') print(await viaCli(buildDir, work, file, false, 'npm run import, again (all unchanged)'));
      }
      if (VIA.includes('page')) {
        rmSync(path.join(work, 'page-data'), { recursive: true, force: true });
        const page = await viaPage(work);
        try {
          console.log(`  /import page: the server started at peak RSS ${mb(page.startPeak)}`);
          if (process.env.BENCH_DRY !== '0') print(await page.upload(file, true, '/import, dry run'));
          if (process.env.BENCH_REAL !== '0') print(await page.upload(file, false, '/import'));
        } finally {
          await page.stop();
        }
      }
      rmSync(file, { force: true });
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
