// Which test file runs where, decided by what each file touches (vitest.config.ts and
// scripts/run-tests.mjs read it; the README's "Tests" section says the same in words).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The files that prove the Node runtime, run again on the newer Node CI brings (26): the server
 * started from the build, stopped on SIGTERM mid-request (a JSON POST, a multipart upload with an
 * image) and restarted on its data (main.test.ts), the Node it names (runtime.test.ts); a request
 * of each kind through the whole app on PGlite: sign-up and session, JSON, a multipart upload with
 * an image (blogs.test.ts), a feed (feeds.test.ts); the image child process (image-worker.test.ts);
 * and a crash: kill -9, then a restart on the same data with the account it had (runtime.test.ts).
 * What the server does with a site an earlier version left (start-up-backfills.test.ts) and what a
 * crash does to a send in flight (subscription-delivery.crash.test.ts) are about our code: one Node.
 */
export const RUNTIME_TESTS = [
  'src/server/main.test.ts',
  'src/server/runtime.test.ts',
  'src/server/blogs/blogs.test.ts',
  'src/server/feeds/feeds.test.ts',
  'src/server/images/image-worker.test.ts',
];

const TESTING = 'src/server/testing';
/** The helper through which a test reaches the run's database (PGlite, or Postgres in that project). */
const TEST_DATABASE = `${TESTING}/test-app.ts`;
/** The helpers that start the server or a command-line tool in a process of its own. */
const SERVER_PROCESS = `${TESTING}/server-process.ts`;
const STARTS_A_PROCESS = ['runCli', 'startServer', 'startHealthyServer', 'startPostgresAppProcess'];

/** The modules a file imports for their values (`import type` brings in no code), with the names it takes from each. */
function importsOf(root, file) {
  const source = readFileSync(path.join(root, file), 'utf8');
  return [...source.matchAll(/^import\s+(?!type\s)([^;]*?)\s+from\s+'([^']+)'/gms)].map(([, clause, specifier]) => ({
    module: specifier.startsWith('.') ? path.posix.join(path.posix.dirname(file), specifier).replace(/\.js$/, '.ts') : specifier,
    names: [...clause.matchAll(/[\w$]+/g)].map(([name]) => name),
  }));
}
const valueImports = (root, file) => importsOf(root, file).map((imported) => imported.module);

/** Whether `file` imports `target`, itself or through the shared testing helpers. */
function reaches(root, file, target, seen = new Set()) {
  if (seen.has(file)) return false;
  seen.add(file);
  return valueImports(root, file).some((imported) => imported === target || (imported.startsWith(`${TESTING}/`) && reaches(root, imported, target, seen)));
}

function testFiles(root, folder = 'src') {
  return readdirSync(path.join(root, folder), { withFileTypes: true }).flatMap((entry) => {
    const relative = path.posix.join(folder, entry.name);
    if (entry.isDirectory()) return testFiles(root, relative);
    return entry.name.endsWith('.test.ts') ? [relative] : [];
  });
}

/**
 * Every test file by where it runs: `inProcess`, `mocking` and `spawning` on PGlite (together,
 * every file but those written for Postgres alone), `touchingSql` on Postgres too (every file that
 * reaches the test database, but one whose first lines say `// test-plan: PGlite only`). `inProcess`
 * files share their worker's modules (Vitest's `isolate: false`: the app's graph is imported once
 * per worker, not once per file); a file that replaces a module (`vi.mock`) gets a graph of its own.
 */
export function testFilesBy(root) {
  const all = testFiles(root);
  const postgresOnly = (file) => file.endsWith('.postgres.test.ts');
  const mocks = (file) => /^\s*vi\.mock\(/m.test(readFileSync(path.join(root, file), 'utf8'));
  // A file about PGlite itself (its dump, a restore into it) says so on a line of its own.
  const pgliteOnly = (file) => /^\/\/ test-plan: PGlite only\b/m.test(readFileSync(path.join(root, file), 'utf8'));
  const spawns = (file) =>
    importsOf(root, file).some(
      ({ module, names }) => module === 'node:child_process' || (module === SERVER_PROCESS && names.some((name) => STARTS_A_PROCESS.includes(name))),
    );
  return {
    inProcess: all.filter((file) => !postgresOnly(file) && !spawns(file) && !mocks(file)),
    mocking: all.filter((file) => !postgresOnly(file) && !spawns(file) && mocks(file)),
    spawning: all.filter((file) => !postgresOnly(file) && spawns(file)),
    touchingSql: all.filter((file) => postgresOnly(file) || (reaches(root, file, TEST_DATABASE) && !pgliteOnly(file))),
  };
}
