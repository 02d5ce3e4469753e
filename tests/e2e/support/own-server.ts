import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { expect } from '@playwright/test';
import { readOutbox, type OutboxMail } from '../../../src/server/testing/outbox-reader';

const root = path.resolve(import.meta.dirname, '../../..');

export interface OwnServer {
  baseURL: string;
  /** Waits for the newest e-mail to `to` whose subject matches, in this server's outbox. */
  waitForMail(to: string, subject: RegExp): Promise<OutboxMail>;
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/**
 * A built server of the spec's own, on a fresh data folder: for a spec that changes what every
 * page shows (the site's name, its colour, who may sign up), which the shared e2e server's other
 * specs must never see. Same settings as scripts/e2e-server.mjs, plus `env`.
 */
export async function startOwnServer(env: Record<string, string> = {}): Promise<OwnServer> {
  const port = await freePort();
  const dataDir = path.join(root, '.e2e-data', `own-${port}`);
  rmSync(dataDir, { recursive: true, force: true });
  const baseURL = `http://localhost:${port}`;
  const child: ChildProcess = spawn(process.execPath, [path.resolve(root, process.env.BUILD_DIR ?? 'dist', 'server/main.js')], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      PUBLIC_URL: baseURL,
      TRUST_PROXY: '127.0.0.1',
      AUTH_REQUIRE_EMAIL_VERIFICATION: 'true',
      LOG_LEVEL: 'warn',
      AI_API_KEY: '',
      SMTP_URL: '',
      DATABASE_URL: '',
      MODERATOR_EMAILS: '',
      ...env,
    },
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await expect
    .poll(async () => (await fetch(`${baseURL}/api/health`).catch(() => undefined))?.status, { timeout: 60_000, message: 'the spec’s own server is up' })
    .toBe(200);
  return {
    baseURL,
    async waitForMail(to, subject) {
      let found: OutboxMail | undefined;
      await expect
        .poll(
          async () => {
            found = (await readOutbox(path.join(dataDir, 'mail'))).filter((mail) => mail.to === to && subject.test(mail.subject)).at(-1);
            return Boolean(found);
          },
          { timeout: 15_000, message: `an e-mail to ${to} with subject ${subject}` },
        )
        .toBe(true);
      return found!;
    },
    async stop() {
      child.kill('SIGTERM');
      await exited;
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
