// `npm test` (and `npm run check`): the whole check, as CI runs it. Stages, each with its own log
// in .test-results/ (printed when the stage ends, so two stages running at once never interleave):
//
//   lint, typecheck           ESLint (the boundary rules included) and TypeScript for server, web, tools and tests
//   vitest                    unit and API tests on PGlite, and on Postgres those that touch SQL (TEST_DATABASE_URL)
//   build                     what `npm start` serves
//   processes                 the tests that start the built server or a command-line tool in processes of their own
//   playwright                the end-to-end tests in Chromium, against the build
//   runtime                   with TEST_ALSO_ON_NODE (CI gives it Node 26): the files that prove the runtime, on that Node
//
// Stages run side by side, at most LANES at a time (2: one per core of the machine this is made
// for; TEST_LANES overrides), each when the stages it needs are done. At the end: the wall time of
// each stage, the tests that needed CI's one retry, the failures, and one plain line
// `N passed, N failed` that CI reads (each test counted once per place it ran).
import { spawn, spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const results = path.join(root, '.test-results');
rmSync(results, { recursive: true, force: true });
mkdirSync(results, { recursive: true });
const bin = (name) => path.join(root, 'node_modules/.bin', name);
const vitestCli = path.join(root, 'node_modules/vitest/vitest.mjs');
const LANES = Number(process.env.TEST_LANES ?? Math.max(2, Math.min(os.availableParallelism(), 4)));
const started = Date.now();

let passed = 0;
let failed = 0;
/** What went wrong outside a test's own assertions: a stage that failed or produced no results. */
const problems = [];
/** The failed tests by name, listed above the summary line (CI shows the end of the output). */
const failures = [];
/** Tests that failed once and passed on CI's one retry: they count as passed, and are named. */
const flaky = [];

// eslint-disable-next-line no-control-regex -- the messages carry terminal colours
const firstLine = (text) => (text ?? '').replace(/\u001b\[[0-9;]*m/g, '').trim().split('\n')[0].slice(0, 300);

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

/** CPU seconds (user + system) each stage's log has been charged with, by `run`. */
const cpuByLog = new Map();
/**
 * bash runs the command, then `times`, whose second line is the CPU of the children it has reaped
 * (with theirs, as each parent reaps its own): the figure that compares two runs on a shared,
 * noisy machine, where wall time does not. A process nobody waits for (Chromium's zygote-forked
 * renderers once orphaned) is not counted, so a stage's figure is a floor.
 */
const WITH_CPU_TIMES = 'status=0; "$@" || status=$?; times >&3; exit $status';
const cpuSecondsOf = (times) => {
  const children = times.trim().split('\n')[1] ?? '';
  return [...children.matchAll(/(\d+)m([\d.]+)s/g)].reduce((sum, [, minutes, secs]) => sum + Number(minutes) * 60 + Number(secs), 0);
};

/** Runs a command with its output to the stage's log; resolves to its exit status. */
function run(log, command, args, env = {}) {
  return new Promise((resolve) => {
    const out = createWriteStream(log, { flags: 'a' });
    out.write(`$ ${[command, ...args].map((arg) => path.relative(root, arg) || arg).join(' ')}\n`);
    const child = spawn('bash', ['-c', WITH_CPU_TIMES, 'bash', command, ...args], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
      env: { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1', ...env },
    });
    child.stdout.pipe(out, { end: false });
    child.stderr.pipe(out, { end: false });
    let times = '';
    child.stdio[3].on('data', (chunk) => (times += chunk));
    child.on('close', (code) => {
      cpuByLog.set(log, (cpuByLog.get(log) ?? 0) + cpuSecondsOf(times));
      out.end(() => resolve(code ?? 1));
    });
  });
}

function countVitest(jsonFile, place, status) {
  const report = readJson(jsonFile);
  if (!report) return problems.push(`vitest (${place}) produced no results`);
  passed += report.numPassedTests;
  failed += report.numFailedTests;
  for (const file of report.testResults ?? []) {
    const relative = path.relative(root, file.name);
    for (const test of file.assertionResults ?? []) {
      if (test.status === 'failed') failures.push(`vitest (${place}): ${relative} > ${test.fullName}: ${firstLine(test.failureMessages?.[0])}`);
      else if (test.status === 'passed' && test.failureMessages?.length) flaky.push(`vitest (${place}): ${relative} > ${test.fullName}: ${firstLine(test.failureMessages[0])}`);
    }
    if (file.status === 'failed' && !(file.assertionResults ?? []).some((test) => test.status === 'failed')) {
      failures.push(`vitest (${place}): ${relative}: ${firstLine(file.message)}`);
    }
  }
  if (status !== 0 && report.numFailedTests === 0) problems.push(`vitest (${place}) exited with ${status} (a file failed to load?)`);
}

function playwrightFailures(suite) {
  for (const spec of suite.specs ?? []) {
    for (const test of spec.tests ?? []) {
      if (test.status === 'unexpected') failures.push(`playwright: ${spec.file} > ${spec.title}: ${firstLine(test.results?.at(-1)?.error?.message)}`);
      else if (test.status === 'flaky') flaky.push(`playwright: ${spec.file} > ${spec.title}: ${firstLine(test.results?.[0]?.error?.message)}`);
    }
  }
  for (const child of suite.suites ?? []) playwrightFailures(child);
}

/** Vitest with `args` (projects, files) on `node`; every process its tests start runs on that Node too. */
async function vitest(stage, node, args, env = {}) {
  const json = path.join(results, `${stage}.json`);
  const nodeEnv = { PATH: `${path.dirname(node)}${path.delimiter}${process.env.PATH}`, ...env };
  const status = await run(logOf(stage), node, [vitestCli, 'run', ...args, '--reporter=default', '--reporter=json', `--outputFile.json=${json}`], nodeEnv);
  countVitest(json, stage, status);
  return status;
}

const logOf = (stage) => path.join(results, `${stage}.log`);
const withPostgres = Boolean(process.env.TEST_DATABASE_URL);
const secondNode = process.env.TEST_ALSO_ON_NODE;
const nodeVersion = (node) => spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim();

/** The stages, in the order they are started when several are ready. */
const stages = [
  {
    name: 'vitest',
    what: `unit and API tests on Node ${process.versions.node}: PGlite${withPostgres ? ', and Postgres for those that touch SQL' : ''}`,
    run: () => vitest('vitest', process.execPath, ['--project', 'unit', '--project', 'mocking', ...(withPostgres ? ['--project', 'postgres', '--project', 'postgres-mocking'] : [])]),
  },
  {
    name: 'lint',
    what: 'ESLint, the boundary rules included',
    run: async () => ((await run(logOf('lint'), bin('eslint'), ['.', '--max-warnings', '0'])) === 0 ? 0 : problems.push('lint failed (.test-results/lint.log)')),
  },
  {
    name: 'typecheck',
    what: 'TypeScript: server, web, tools and tests',
    run: async () => {
      const projects = ['tsconfig.server.json', 'tsconfig.web.json', 'tsconfig.tools.json'];
      const statuses = await Promise.all(projects.map((project) => run(logOf('typecheck'), bin('tsc'), ['-p', project])));
      if (statuses.some((status) => status !== 0)) problems.push('typecheck failed (.test-results/typecheck.log)');
    },
  },
  {
    name: 'build',
    what: 'npm run build',
    run: async () => ((await run(logOf('build'), 'npm', ['run', 'build', '--silent'])) === 0 ? 0 : problems.push('the build failed, so nothing that needs it ran')),
  },
  {
    name: 'playwright',
    what: 'end-to-end tests in Chromium against the build',
    after: ['build'],
    run: async () => {
      const json = path.join(results, 'playwright.json');
      const status = await run(logOf('playwright'), bin('playwright'), ['test', '--reporter=list,json'], { PLAYWRIGHT_JSON_OUTPUT_NAME: json });
      const report = existsSync(json) ? readJson(json) : undefined;
      if (!report?.stats) return problems.push('playwright produced no results');
      passed += report.stats.expected + (report.stats.flaky ?? 0);
      failed += report.stats.unexpected;
      for (const suite of report.suites ?? []) playwrightFailures(suite);
      if (status !== 0 && report.stats.unexpected === 0) problems.push(`playwright exited with ${status}`);
    },
  },
  {
    name: 'processes',
    what: 'the tests that start the built server or a command-line tool in processes of their own',
    after: ['build'],
    run: () => vitest('processes', process.execPath, ['--project', 'processes'], { TEST_SERVER_BUILD: 'dist' }),
  },
  ...(secondNode
    ? [
        {
          name: 'runtime',
          what: `the runtime's tests on Node ${nodeVersion(secondNode).slice(1)}`,
          after: ['build'],
          run: () => vitest('runtime', secondNode, [], { TEST_PROJECT: 'runtime', TEST_SERVER_BUILD: 'dist' }),
        },
      ]
    : []),
];

const seconds = (ms) => `${Math.round(ms / 1000)} s`;
const done = new Set();
const failedStages = new Set();
const timings = [];

async function start(stage) {
  const begun = Date.now();
  console.log(`▶ ${stage.name}: ${stage.what}`);
  const problemsBefore = problems.length;
  const failuresBefore = failures.length;
  await stage.run();
  const ok = problems.length === problemsBefore && failures.length === failuresBefore;
  if (!ok) failedStages.add(stage.name);
  timings.push({ name: stage.name, from: begun - started, ms: Date.now() - begun, ok });
  console.log(`\n■ ${stage.name} ${ok ? 'passed' : 'FAILED'} in ${seconds(Date.now() - begun)}; its output (.test-results/${stage.name}.log):`);
  if (existsSync(logOf(stage.name))) process.stdout.write(readFileSync(logOf(stage.name), 'utf8'));
  done.add(stage.name);
}

// A small scheduler: start every ready stage while a lane is free; a stage whose prerequisite failed is skipped.
await new Promise((resolve) => {
  const running = new Set();
  const pending = [...stages];
  const next = () => {
    for (const stage of [...pending]) {
      if (running.size >= LANES) break;
      const needs = stage.after ?? [];
      if (needs.some((name) => failedStages.has(name))) {
        pending.splice(pending.indexOf(stage), 1);
        problems.push(`${stage.name} did not run: ${needs.filter((name) => failedStages.has(name)).join(', ')} failed`);
        continue;
      }
      if (!needs.every((name) => done.has(name))) continue;
      pending.splice(pending.indexOf(stage), 1);
      running.add(stage);
      void start(stage).then(() => {
        running.delete(stage);
        next();
      });
    }
    if (running.size === 0 && pending.length === 0) resolve();
  };
  next();
});

console.log(`\nStages (${LANES} at a time; wall time, CPU of the stage's processes, and when from the start of \`npm test\`):`);
for (const timing of timings.sort((a, b) => a.from - b.from)) {
  const cpu = `${Math.round(cpuByLog.get(logOf(timing.name)) ?? 0)} s of CPU`;
  console.log(`  ${timing.name.padEnd(11)} ${seconds(timing.ms).padStart(6)}  ${cpu.padStart(13)}  (from ${seconds(timing.from)} to ${seconds(timing.from + timing.ms)})${timing.ok ? '' : '  FAILED'}`);
}
const allCpu = [...cpuByLog.values()].reduce((sum, cpu) => sum + cpu, 0);
console.log(`  ${'all'.padEnd(11)} ${seconds(Date.now() - started).padStart(6)}  ${`${Math.round(allCpu)} s of CPU`.padStart(13)}`);
if (process.env.CI_SETUP_SECONDS) {
  const setup = Number(process.env.CI_SETUP_SECONDS) * 1000;
  console.log(`  ${'CI setup'.padEnd(11)} ${seconds(setup).padStart(6)}  (.ci/run: Node, npm ci, Chromium and Postgres, before \`npm test\`)`);
  console.log(`  ${'CI in all'.padEnd(11)} ${seconds(setup + Date.now() - started).padStart(6)}`);
}
if (flaky.length > 0) console.log(`\nPassed on the retry (flaky: each is a bug to fix):\n${flaky.map((test) => `  ${test}`).join('\n')}`);
if (failures.length > 0) console.log(`\nFailed:\n${failures.map((failure) => `  ${failure}`).join('\n')}\n`);
for (const problem of problems) console.error(`test run problem: ${problem}`);
const ok = failed === 0 && problems.length === 0;
// A stage that failed without a failed test counts as one failure, so the line never reads as green.
const failedCount = failed === 0 && problems.length > 0 ? problems.length : failed;
console.log(`${passed} passed, ${failedCount} failed`);
process.exit(ok ? 0 : 1);
