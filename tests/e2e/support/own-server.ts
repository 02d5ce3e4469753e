import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { e2eDataDir, e2eServerEnv, serverEntry } from '../../../scripts/e2e-server-env.mjs';
import { readOutbox, type OutboxMail } from '../../../src/server/testing/outbox-reader';

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
 * specs must never see. The shared server's settings (scripts/e2e-server-env.mjs) without its
 * moderators and owner (the first account is the owner here), plus `env`.
 */
export async function startOwnServer(env: Record<string, string> = {}): Promise<OwnServer> {
  const port = await freePort();
  const dataDir = e2eDataDir(`own-${port}`);
  rmSync(dataDir, { recursive: true, force: true });
  const baseURL = `http://localhost:${port}`;
  const child: ChildProcess = spawn(process.execPath, [serverEntry], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...e2eServerEnv(port, dataDir), ...env },
  });
  let exitCode: number | null | undefined;
  const exited = new Promise<void>((resolve) =>
    child.once('exit', (code) => {
      exitCode = code;
      resolve();
    }),
  );
  try {
    // A server that exits ends the wait at once; a start on a machine loaded past its cores (CI
    // beside the Vitest lane) takes up to a minute and more, within the hook's 120 s.
    await expect
      .poll(async () => (exitCode !== undefined ? `exited with ${exitCode}` : (await fetch(`${baseURL}/api/health`).catch(() => undefined))?.status), {
        timeout: 100_000,
        message: 'the spec’s own server is up',
      })
      .toBe(200);
  } catch (error) {
    // Never left starting behind the failed spec, taking the machine from the next ones.
    child.kill('SIGKILL');
    await exited;
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
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

/**
 * The describe block's own server: started before its first test, stopped after its last. The
 * answer stands for it from then on (its `baseURL` read when a test runs).
 */
export function useOwnServer(env: Record<string, string> = {}): OwnServer {
  let started: OwnServer | undefined;
  test.beforeAll(async () => {
    started = await startOwnServer(env);
  });
  test.afterAll(async () => {
    await started?.stop();
  });
  const current = () => {
    if (!started) throw new Error('the spec’s own server is not started yet (use it inside a test)');
    return started;
  };
  return {
    get baseURL() {
      return current().baseURL;
    },
    waitForMail: (to, subject) => current().waitForMail(to, subject),
    stop: () => current().stop(),
  };
}

/** Opens `path` and waits until the app has hydrated (a focus starts a reading page's app). */
export async function hydrated(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await page.evaluate(() => window.dispatchEvent(new FocusEvent('focusin')));
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true');
}

/** Signs up through the API and confirms through the e-mailed link, as the shared fixtures do. */
export async function signUpConfirmed(server: OwnServer, context: BrowserContext, email: string, password: string): Promise<void> {
  const signedUp = await context.request.post('/api/auth/sign-up/email', { data: { email, password, name: 'owner' }, headers: { origin: server.baseURL } });
  expect(signedUp.status(), await signedUp.text()).toBe(200);
  const token = new URL((await server.waitForMail(email, /confirm/i)).links[0]!).searchParams.get('token')!;
  const verified = await context.request.get(`/api/auth/verify-email?token=${encodeURIComponent(token)}`, { headers: { origin: server.baseURL }, maxRedirects: 0 });
  expect([200, 302]).toContain(verified.status());
}
