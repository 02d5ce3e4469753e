import { defineConfig, devices } from '@playwright/test';

export const E2E_PORT = Number(process.env.E2E_PORT ?? 3100);
export const E2E_BASE_URL = `http://localhost:${E2E_PORT}`;

/** Debian's Chromium; Playwright never downloads a browser here. */
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const desktop = { ...devices['Desktop Chrome'], viewport: { width: 1280, height: 800 } };
const QUIET_TESTS = /layout-shift\.spec\.ts/;

export default defineConfig({
  testDir: 'tests/e2e',
  // One folder per port, so runs side by side never wipe each other's traces.
  outputDir: `test-results/${E2E_PORT}`,
  fullyParallel: false,
  workers: process.env.CI ? 2 : 2,
  // One retry on CI only (a shared, noisy machine); `npm test` names every test that needed it.
  retries: process.env.CI ? 1 : 0,
  // The longest flows (moderation: two users, a moderator, five screens) take about a minute on a busy machine.
  timeout: 120_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  use: {
    baseURL: E2E_BASE_URL,
    // A trace records a screencast and DOM snapshots of every action: measured, 40 % of the run's
    // CPU (Chromium's GPU process mostly draws its frames). CI records it on a test's retry, where
    // a failure is looked at (docs/testing.md); a run here keeps it for each failed test.
    trace: process.env.CI ? 'on-first-retry' : 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: chromium,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-quic', '--no-first-run'],
    },
  },
  projects: [
    { name: 'chromium', use: desktop, testIgnore: QUIET_TESTS },
    // Layout shift is measured on a site no other test is writing to: a blog created or voted on by
    // the other worker between the server's render and the signed-in refetch really moves the list.
    { name: 'quiet', use: desktop, testMatch: QUIET_TESTS, dependencies: ['chromium'] },
  ],
  webServer: {
    // Builds nothing: `npm test` / `npm run test:e2e` build first. Starts on a fresh data folder.
    command: 'node scripts/e2e-server.mjs',
    url: `${E2E_BASE_URL}/api/health`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'ignore',
    stderr: 'pipe',
  },
});
