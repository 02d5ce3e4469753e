// Starts the built server for the end-to-end tests on a fresh data folder (.e2e-data/<port>/).
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const port = process.env.E2E_PORT ?? '3100';
const dataDir = path.join(root, '.e2e-data', port);
rmSync(dataDir, { recursive: true, force: true });
const buildDir = path.resolve(root, process.env.BUILD_DIR ?? 'dist');

const child = spawn(process.execPath, [path.join(buildDir, 'server/main.js')], {
  stdio: 'inherit',
  env: {
    ...process.env,
    NODE_ENV: 'production',
    PORT: port,
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    PUBLIC_URL: `http://localhost:${port}`,
    // The tests give each browser context its own X-Forwarded-For, so per-IP limits apply per test.
    TRUST_PROXY: '127.0.0.1',
    AUTH_REQUIRE_EMAIL_VERIFICATION: 'true',
    LOG_LEVEL: 'warn',
    AI_API_KEY: '',
    SMTP_URL: '',
    DATABASE_URL: '',
    // The moderation and import specs each sign in as one of these moderators (tests/e2e/support/fixtures.ts).
    MODERATOR_EMAILS: 'e2e-moderator@example.com,e2e-import-moderator@example.com,e2e-analytics-moderator@example.com',
    // Issue 44: only this address becomes the owner, so whichever spec signs up first is an author, as the spec's users are.
    OWNER_EMAIL: 'e2e-owner@example.com',
  },
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code) => process.exit(code ?? 0));
