import { defineConfig } from 'vitest/config';

// API tests run against PGlite always, and against a real Postgres too when TEST_DATABASE_URL is set.
const postgresUrl = process.env.TEST_DATABASE_URL;

const common = {
  globalSetup: ['src/server/testing/global-setup.ts'],
  testTimeout: 30_000,
  hookTimeout: 60_000,
  // CI runs on a shared two-core machine where a test that spawns servers can miss its deadline
  // once. One retry there, never locally; `npm test` names every test that needed it.
  retry: process.env.CI ? 1 : 0,
};

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          ...common,
          name: 'pglite',
          include: ['src/**/*.test.ts'],
          exclude: ['src/**/*.postgres.test.ts'],
          env: { TEST_DB_KIND: 'pglite' },
        },
      },
      ...(postgresUrl
        ? [
            {
              test: {
                ...common,
                name: 'postgres',
                // Only the tests that touch the database run twice.
                include: ['src/server/**/*.test.ts'],
                exclude: [
                  'src/server/images/image-processing.test.ts',
                  'src/server/images/image-variants.test.ts',
                  'src/server/markdown/**',
                  'src/server/storage/**',
                  'src/server/ai/offline-generator.test.ts',
                  'src/server/ai/sanitize-blog-html.test.ts',
                  'src/server/ai/ai-provider.test.ts',
                  'src/server/ai/client-bundle.test.ts',
                  'src/server/config.test.ts',
                  // Lints the source: no database in it.
                  'src/server/boundaries.test.ts',
                  'src/server/main.test.ts',
                  // Spawns servers on their own PGlite, as main.test.ts does.
                  'src/server/storage-sweep/storage-sweep.crash.test.ts',
                  'src/server/storage-sweep/storage-sweep.cli.test.ts',
                  'src/server/portability/import/import.cli.test.ts',
                  // PGlite's own dump and restore; backup.postgres.test.ts is Postgres' (pg_dump).
                  'src/server/portability/backup/backup.test.ts',
                  // Restores into a fresh PGlite; what it proves (the images in S3) is the same on either database.
                  'src/server/portability/backup/backup.s3.test.ts',
                  'src/server/portability/backup/backup-running-server.test.ts',
                  'src/server/subscriptions/subscription-delivery.crash.test.ts',
                  // Spawns servers on their own PGlite: nothing in it depends on the test database.
                  'src/server/http/connection-hygiene.test.ts',
                ],
                env: { TEST_DB_KIND: 'postgres' },
              },
            },
          ]
        : []),
    ],
  },
});
