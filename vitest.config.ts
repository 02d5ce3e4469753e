import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';
import { RUNTIME_TESTS, testFilesBy } from './scripts/test-plan.mjs';

// Which test runs where (README, "Tests"): every test file once on PGlite, in `unit`, or in
// `mocking` when it replaces a module, or in `processes` when it starts processes of its own; the tests that touch SQL a second time on a real
// Postgres when TEST_DATABASE_URL is set; and, with TEST_PROJECT=runtime, only the files that prove
// the Node runtime (CI runs them on Node 26). scripts/test-plan.mjs reads the files to decide.
const postgresUrl = process.env.TEST_DATABASE_URL;
const files = testFilesBy(import.meta.dirname);

const common = {
  globalSetup: ['src/server/testing/global-setup.ts'],
  testTimeout: 30_000,
  hookTimeout: 60_000,
  // CI runs on a shared two-core machine where a test that spawns servers can miss its deadline
  // once. One retry there, never locally; `npm test` names every test that needed it, and a test
  // that needed it is a bug to fix.
  retry: process.env.CI ? 1 : 0,
};

const project = (name: string, include: string[], env: Record<string, string>, isolate = true, globalSetup = common.globalSetup): TestProjectInlineConfiguration => ({
  test: { ...common, name, include, env, isolate, globalSetup },
});

const projects =
  process.env.TEST_PROJECT === 'runtime'
    ? [project('runtime', RUNTIME_TESTS, { TEST_DB_KIND: 'pglite' }, true, [...common.globalSetup, 'src/server/testing/processes-setup.ts'])]
    : [
        // Files in a worker share its modules: the app's graph is imported once per worker, not per file.
        project('unit', files.inProcess, { TEST_DB_KIND: 'pglite' }, false),
        project('mocking', files.mocking, { TEST_DB_KIND: 'pglite' }),
        // No test app here: only the empty cluster, not the migrated template and Vite's warm-up.
        project('processes', files.spawning, { TEST_DB_KIND: 'pglite' }, true, ['src/server/testing/processes-setup.ts']),
        ...(postgresUrl
          ? [
              project('postgres', files.touchingSql.filter((file) => !files.mocking.includes(file)), { TEST_DB_KIND: 'postgres' }, false),
              project('postgres-mocking', files.touchingSql.filter((file) => files.mocking.includes(file)), { TEST_DB_KIND: 'postgres' }),
            ]
          : []),
      ];

export default defineConfig({
  test: {
    // Two cores here: two workers measured faster than Vitest's default of cores − 1 (docs/testing.md).
    maxWorkers: Number(process.env.TEST_WORKERS ?? 2),
    projects,
  },
});
