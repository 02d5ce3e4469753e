/**
 * What counting costs per request, in CPU time rather than requests a second. The same build is
 * started three times on one Postgres database: with counting on, with `ANALYTICS=false`, and
 * with `ANALYTICS=false` again as a control (two processes of one build differ by that much). Each
 * is sent the home page (a response-cache hit, counted) at a fixed rate by a crowd of new visitors
 * (an address per request, a browser's user agent), and so is the throughput bench's bare Node
 * server sending the same bytes from memory (the floor). All four are loaded at once, so the
 * machine's other work lands on all of them alike; their CPU time, and Postgres's, is read from
 * `/proc` around each round.
 *
 * The throughput bench's ratio moves with whatever else the two cores do; CPU time per request
 * moves less, so this is where a change to the counting path is judged.
 *
 *   BUILD_DIR=dist node --import tsx bench/analytics-cost.bench.ts      (needs `npm run build` first)
 *
 * BENCH_RATE (default 1,000 requests a second to each), BENCH_SECONDS (default 15) per round,
 * BENCH_ROUNDS (default 3). DATABASE_URL to use a server of your own (a database is created and
 * dropped), else a throwaway cluster is started and stopped. BENCH_APP_NODE_ARGS adds Node
 * options to the apps' processes (a profile: `--cpu-prof --cpu-prof-dir=profiles`).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { sql } from 'kysely';
import { benchSite, builtServerEntry, freePort, start, startBuiltAppProcess, stop, waitFor, type Cleanups } from './support/bench-processes.js';
import { cpuMs, postgresMs, postmasterOf } from './support/process-cpu.js';

const RATE = Number(process.env.BENCH_RATE ?? 1_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
/** Node options for both apps' processes, for example a profile: `--cpu-prof --cpu-prof-dir=profiles` (a file each, named by its process id). */
const APP_NODE_ARGS = (process.env.BENCH_APP_NODE_ARGS ?? '').split(/\s+/).filter(Boolean);
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
function crowdAddress(): string {
  const b = randomBytes(3);
  return `10.${b[0]}.${b[1]}.${b[2]}`;
}

/** `off` twice: two processes of the same build and settings differ by this much (the noise floor). */
type Name = 'bare' | 'off' | 'off again' | 'on';
type Target = { name: Name; base: string; pid: number };

/**
 * One round: the three servers loaded at once, each at RATE, so that whatever else the machine
 * does in those seconds lands on all three alike. Answers each one's CPU time per request, and
 * Postgres's over the round per request to the counting app (the only one that writes).
 */
async function round(targets: Target[], postmaster: number, seconds = SECONDS) {
  const before = targets.map((target) => cpuMs(target.pid));
  const pg0 = postgresMs(postmaster);
  const results = await Promise.all(
    targets.map((target) =>
      autocannon({
        url: `${target.base}/`,
        connections: 10,
        overallRate: RATE,
        duration: seconds,
        requests: [{ setupRequest: (request) => ({ ...request, headers: { ...(request.headers as Record<string, string>), 'x-forwarded-for': crowdAddress(), 'user-agent': BROWSER } }) }],
      }),
    ),
  );
  for (const [i, result] of results.entries()) {
    if (result.errors || result.non2xx) throw new Error(`${targets[i]!.name}: ${result.errors} errors, ${result.non2xx} non-2xx answers`);
  }
  // The last flush of the round's views (every 5 s) belongs to the round.
  await new Promise((resolve) => setTimeout(resolve, 5_500));
  const postgres = postgresMs(postmaster) - pg0;
  return targets.map((target, i) => {
    const requests = results[i]!.requests.total;
    return { name: target.name, requests, appUs: ((cpuMs(target.pid) - before[i]!) * 1000) / requests, postgresUs: target.name === 'on' ? (postgres * 1000) / requests : 0 };
  });
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)]!;

async function main() {
  const mainJs = builtServerEntry();
  const cleanups: Cleanups = [];
  try {
    const { databaseUrl, database, authorId } = await benchSite('analytics_cost_bench', cleanups);
    await sql`
      insert into blogs (user_id, title, body, html, excerpt, reading_minutes, created_at, updated_at)
      select ${authorId}, 'Benchmark blog number ' || g, repeat('Some words. ', 50), '<p>' || repeat('Some words. ', 50) || '</p>',
             left(repeat('Some words. ', 50), 200), 1, now() - g * interval '1 minute', now() - g * interval '1 minute'
      from generate_series(1, 1000) as g`.execute(database.db);

    const postmaster = await postmasterOf(database.db);
    const apps: Record<'off' | 'off again' | 'on', { base: string; pid: number }> = {} as never;
    for (const mode of ['off', 'on', 'off again'] as const) {
      const { base, child } = await startBuiltAppProcess(
        mainJs,
        databaseUrl,
        cleanups,
        { TRUST_PROXY: '127.0.0.1', RATE_LIMIT_SCALE: '1', ANALYTICS: mode === 'on' ? 'true' : 'false' },
        APP_NODE_ARGS,
      );
      apps[mode] = { base, pid: child.pid! };
      if (APP_NODE_ARGS.length > 0) console.log(`The app with counting ${mode} is process ${child.pid}.`);
    }

    const homeFile = path.join(mkdtempSync(path.join(os.tmpdir(), 'analytics-cost-bare-')), 'home.html');
    cleanups.push(() => rmSync(path.dirname(homeFile), { recursive: true, force: true }));
    writeFileSync(homeFile, Buffer.from(await (await fetch(`${apps.off.base}/`)).arrayBuffer()));
    const barePort = await freePort();
    const throughputBench = fileURLToPath(new URL('./throughput.bench.ts', import.meta.url));
    const bare = start(process.execPath, ['--import', 'tsx', throughputBench, 'bare', String(barePort), `/|${homeFile}|text/html; charset=utf-8`], {});
    cleanups.push(() => stop(bare));
    const bareBase = `http://127.0.0.1:${barePort}`;
    await waitFor(`${bareBase}/`);

    console.log(`The home page at ${RATE} requests a second to each server at once, ${SECONDS} s a round, ${ROUNDS} rounds, a new visitor per request.`);
    const targets: Target[] = [
      { name: 'bare', base: bareBase, pid: bare.pid! },
      { name: 'off', ...apps.off },
      { name: 'on', ...apps.on },
      { name: 'off again', ...apps['off again'] },
    ];
    // A warm-up (the JIT, the response cache's first render, the pools' connections), not measured.
    await round(targets, postmaster, 3);
    const figures: Record<Name, Array<{ appUs: number; postgresUs: number }>> = { bare: [], off: [], 'off again': [], on: [] };
    for (let i = 0; i < ROUNDS; i++) {
      for (const figure of await round(targets, postmaster)) {
        figures[figure.name].push(figure);
        console.log(`round ${i + 1} ${figure.name}: ${figure.requests} requests, ${figure.appUs.toFixed(1)} µs CPU a request${figure.name === 'on' ? `, Postgres ${figure.postgresUs.toFixed(1)} µs` : ''}`);
      }
    }
    const views = await sql<{ n: number }>`select coalesce(sum(cardinality(visitors)), 0)::int as n from analytics_view_groups`.execute(database.db);
    const summary = (name: Name) => ({ app: median(figures[name].map((f) => f.appUs)), postgres: median(figures[name].map((f) => f.postgresUs)) });
    const [b, off, offAgain, on] = [summary('bare'), summary('off'), summary('off again'), summary('on')];
    console.log('\n| server | app CPU µs a request (median) | Postgres CPU µs a request |\n|---|---|---|');
    console.log(`| bare Node http, same bytes | ${b.app.toFixed(1)} | |`);
    console.log(`| app, ANALYTICS=false | ${off.app.toFixed(1)} | |`);
    console.log(`| app, ANALYTICS=false, a second process | ${offAgain.app.toFixed(1)} | |`);
    console.log(`| app, counting | ${on.app.toFixed(1)} | ${on.postgres.toFixed(1)} |`);
    const offBoth = (off.app + offAgain.app) / 2;
    const extra = on.app + on.postgres - offBoth;
    console.log(`\nCounting adds ${extra.toFixed(1)} µs of CPU a request (${((100 * extra) / offBoth).toFixed(1)} % of the app's without it; the two processes without it differ by ${Math.abs(off.app - offAgain.app).toFixed(1)} µs), ${views.rows[0]!.n} raw views written.`);
  } finally {
    for (const cleanup of cleanups.reverse()) await cleanup();
  }
}

await main();
