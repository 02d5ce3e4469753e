// What the end-to-end tests' built servers run with: the shared one (scripts/e2e-server.mjs) and a
// spec's own (tests/e2e/support/own-server.ts), so the two cannot drift apart.
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');

/** The built server's entry (`npm run build`; BUILD_DIR names another build folder). */
export const serverEntry = path.resolve(root, process.env.BUILD_DIR ?? 'dist', 'server/main.js');

/** A fresh data folder per server, under .e2e-data/ (`name`: the port, or `own-<port>`). */
export const e2eDataDir = (name) => path.join(root, '.e2e-data', name);

/** The environment of a built server on `port` with its data in `dataDir`: this process's, and these settings over it. */
export function e2eServerEnv(port, dataDir) {
  return {
    ...process.env,
    NODE_ENV: 'production',
    PORT: String(port),
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
    MODERATOR_EMAILS: '',
    OWNER_EMAIL: '',
  };
}
