import { defineConfig } from 'vitest/config';

// API tests run against PGlite always, and against a real Postgres too when TEST_DATABASE_URL is set.
const postgresUrl = process.env.TEST_DATABASE_URL;

const common = {
  globalSetup: ['src/server/testing/global-setup.ts'],
  testTimeout: 30_000,
  hookTimeout: 60_000,
};

export default defineConfig({
  test: {
    projects: [
      {
        test: { ...common, name: 'pglite', include: ['src/**/*.test.ts'], env: { TEST_DB_KIND: 'pglite' } },
      },
      ...(postgresUrl
        ? [
            {
              test: {
                ...common,
                name: 'postgres',
                // Only the tests that touch the database run twice.
                include: ['src/server/**/*.test.ts'],
                exclude: ['src/server/images/**', 'src/server/ai/offline-generator.test.ts', 'src/server/storage/**', 'src/server/config.test.ts'],
                env: { TEST_DB_KIND: 'postgres' },
              },
            },
          ]
        : []),
    ],
  },
});
