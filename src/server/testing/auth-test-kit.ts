import { expect, vi } from 'vitest';
import type { App } from '../app.js';
import type { TestApp } from './test-app.js';
import { authHeaders, randomIp, sessionCookie } from './test-users.js';

export interface CallOptions {
  cookie?: string;
  ip?: string;
  /** Replaces the trusted Origin; `null` sends none. */
  origin?: string | null;
}

/** One Better Auth (or account) call as a browser on our site would make it. */
export async function call(app: App, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: unknown, options: CallOptions = {}) {
  const headers: Record<string, string> = { ...authHeaders };
  if (options.origin === null) delete headers.origin;
  else if (options.origin !== undefined) headers.origin = options.origin;
  if (options.cookie) headers.cookie = options.cookie;
  if (payload === undefined) delete headers['content-type'];
  const response = await app.inject({
    method,
    url,
    headers,
    remoteAddress: options.ip ?? randomIp(),
    ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }),
  });
  return Object.assign(response, { cookie: sessionCookie(response.headers['set-cookie']) });
}

export const post = (app: App, url: string, payload: unknown, options?: CallOptions) => call(app, 'POST', url, payload, options);
export const get = (app: App, url: string, options?: CallOptions) => call(app, 'GET', url, undefined, options);

/** The e-mail of ours for `to` whose subject matches; mail goes out in the background, so it is awaited. */
export async function waitForMail(t: TestApp, to: string, subject: RegExp, count = 1) {
  let found: Awaited<ReturnType<TestApp['outbox']>> = [];
  await vi.waitFor(
    async () => {
      found = (await t.outbox()).filter((mail) => mail.to === to && subject.test(mail.subject));
      expect(found.length).toBeGreaterThanOrEqual(count);
    },
    { timeout: 5_000, interval: 20 },
  );
  return found[count - 1]!;
}

/** Mail sent to `to` so far, once the sends the requests left running are done (`settled`). */
export async function mailsTo(t: TestApp, to: string) {
  await t.settled();
  return (await t.outbox()).filter((mail) => mail.to === to);
}

/** The token of an e-mailed link to our /auth page, and the view it opens. */
export function linkParts(link: string) {
  const url = new URL(link);
  return { path: url.pathname, view: url.searchParams.get('view'), token: url.searchParams.get('token') ?? '' };
}

/** The user the session cookie belongs to, asked the way the web app asks. */
export async function sessionEmail(app: App, cookie: string): Promise<string | null> {
  if (!cookie) return null;
  const response = await get(app, '/api/auth/get-session', { cookie });
  const body = response.json() as { user?: { email: string } } | null;
  return body?.user?.email ?? null;
}

export function codeOf(text: string): string {
  const match = /code is (\d{6})/.exec(text);
  if (!match) throw new Error(`no code in: ${text}`);
  return match[1]!;
}

/** Every cookie a response sets, as a `cookie` header (a pending sign-in's `two_factor` among them). */
export function cookiesOf(response: { headers: Record<string, unknown> }): string {
  const setCookie = response.headers['set-cookie'];
  const list = (Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : []) as string[];
  return list
    .map((cookie) => cookie.split(';')[0]!)
    .filter((pair) => !pair.endsWith('='))
    .join('; ');
}
