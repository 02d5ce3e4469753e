// `npm test`: unit and API tests (Vitest), then a build and the end-to-end tests (Playwright in
// Chromium), then one plain summary line `N passed, N failed` that CI reads. With
// `TEST_ALSO_ON_NODE=<path to another node binary>` (CI gives it Node 26), the unit and API tests
// run a second time on that Node and count in the same line.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const results = path.join(root, '.test-results');
rmSync(results, { recursive: true, force: true });
mkdirSync(results, { recursive: true });
const bin = (name) => path.join(root, 'node_modules/.bin', name);

function run(command, args, env = {}) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  return result.status ?? 1;
}

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

let passed = 0;
let failed = 0;
const problems = [];
/** The failed tests by name, listed above the summary line (CI shows the end of the output). */
const failures = [];
/** Tests that failed once and passed on CI's one retry: they count as passed, and are named. */
const flaky = [];

function vitestFailures(report, name) {
  for (const file of report.testResults ?? []) {
    const relative = path.relative(root, file.name);
    for (const test of file.assertionResults ?? []) {
      if (test.status === 'failed') failures.push(`vitest on ${name}: ${relative} > ${test.fullName}: ${firstLine(test.failureMessages?.[0])}`);
      else if (test.status === 'passed' && test.failureMessages?.length) flaky.push(`vitest on ${name}: ${relative} > ${test.fullName}: ${firstLine(test.failureMessages[0])}`);
    }
    if (file.status === 'failed' && !(file.assertionResults ?? []).some((test) => test.status === 'failed')) {
      failures.push(`vitest on ${name}: ${relative}: ${firstLine(file.message)}`);
    }
  }
}

function playwrightFailures(suite) {
  for (const spec of suite.specs ?? []) {
    for (const test of spec.tests ?? []) {
      if (test.status === 'unexpected') {
        const error = test.results?.at(-1)?.error?.message;
        failures.push(`playwright [${test.projectName}]: ${spec.file} > ${spec.title}: ${firstLine(error)}`);
      } else if (test.status === 'flaky') {
        flaky.push(`playwright [${test.projectName}]: ${spec.file} > ${spec.title}: ${firstLine(test.results?.[0]?.error?.message)}`);
      }
    }
  }
  for (const child of suite.suites ?? []) playwrightFailures(child);
}

// eslint-disable-next-line no-control-regex -- the messages carry terminal colours
const firstLine = (text) => (text ?? '').replace(/\u001b\[[0-9;]*m/g, '').trim().split('\n')[0].slice(0, 300);

// 1. Vitest: unit and API tests (PGlite, and Postgres too when TEST_DATABASE_URL is set), on the
// Node that runs this script (npm puts the project's Node 24 first on PATH), then on a second one.
function vitestOn(node, name) {
  console.log(`Unit and API tests on Node ${spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim()}`);
  const vitestJson = path.join(results, `vitest-${name}.json`);
  const vitestCli = path.join(root, 'node_modules/vitest/vitest.mjs');
  // The second Node comes first on PATH too, so every process the tests spawn runs on it.
  const env = { PATH: `${path.dirname(node)}${path.delimiter}${process.env.PATH}` };
  const vitestStatus = run(node, [vitestCli, 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${vitestJson}`], env);
  const vitest = readJson(vitestJson);
  if (vitest) {
    passed += vitest.numPassedTests;
    failed += vitest.numFailedTests;
    vitestFailures(vitest, name);
    if (vitestStatus !== 0 && vitest.numFailedTests === 0) problems.push(`vitest on ${name} exited with ${vitestStatus} (a suite failed to load?)`);
  } else {
    problems.push(`vitest on ${name} produced no results`);
  }
}
vitestOn(process.execPath, 'main');
if (process.env.TEST_ALSO_ON_NODE) vitestOn(process.env.TEST_ALSO_ON_NODE, 'second');

// 2. Build, then Playwright against the built app.
const buildStatus = process.env.SKIP_BUILD ? 0 : run('npm', ['run', 'build', '--silent']);
if (buildStatus !== 0) {
  problems.push('the build failed, so the end-to-end tests did not run');
} else {
  const playwrightJson = path.join(results, 'playwright.json');
  const playwrightStatus = run(bin('playwright'), ['test', '--reporter=list,json'], { PLAYWRIGHT_JSON_OUTPUT_NAME: playwrightJson });
  const playwright = existsSync(playwrightJson) ? readJson(playwrightJson) : undefined;
  if (playwright?.stats) {
    passed += playwright.stats.expected + (playwright.stats.flaky ?? 0);
    failed += playwright.stats.unexpected;
    for (const suite of playwright.suites ?? []) playwrightFailures(suite);
    if (playwrightStatus !== 0 && playwright.stats.unexpected === 0) problems.push(`playwright exited with ${playwrightStatus}`);
  } else {
    problems.push('playwright produced no results');
  }
}

if (flaky.length > 0) console.log(`\nPassed on the retry (flaky):\n${flaky.map((test) => `  ${test}`).join('\n')}`);
if (failures.length > 0) console.log(`\nFailed:\n${failures.map((failure) => `  ${failure}`).join('\n')}\n`);
for (const problem of problems) console.error(`test run problem: ${problem}`);
const ok = failed === 0 && problems.length === 0;
// A stage that crashed without results counts as one failure, so the line never reads as green.
const failedCount = failed === 0 && problems.length > 0 ? problems.length : failed;
console.log(`${passed} passed, ${failedCount} failed`);
process.exit(ok ? 0 : 1);
