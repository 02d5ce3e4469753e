// Starts the built server for the end-to-end tests on a fresh data folder (.e2e-data/<port>/).
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { e2eDataDir, e2eServerEnv, serverEntry } from './e2e-server-env.mjs';

const port = process.env.E2E_PORT ?? '3100';
const dataDir = e2eDataDir(port);
rmSync(dataDir, { recursive: true, force: true });

const child = spawn(process.execPath, [serverEntry], {
  stdio: 'inherit',
  env: {
    ...e2eServerEnv(port, dataDir),
    // The moderation and import specs each sign in as one of these moderators (tests/e2e/support/fixtures.ts).
    MODERATOR_EMAILS: 'e2e-moderator@example.com,e2e-import-moderator@example.com,e2e-analytics-moderator@example.com',
    // Issue 44: only this address becomes the owner, so whichever spec signs up first is an author, as the spec's users are.
    OWNER_EMAIL: 'e2e-owner@example.com',
  },
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code) => process.exit(code ?? 0));
