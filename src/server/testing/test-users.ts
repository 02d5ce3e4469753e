import { randomBytes } from 'node:crypto';
import { beforeAll } from 'vitest';
import type { App } from '../app.js';
import { TEST_PUBLIC_URL, type TestApp } from './test-app.js';

export interface TestUser {
  id: string;
  email: string;
  password: string;
  /** The `cookie` header value that carries this user's session. */
  cookie: string;
}

/** Headers every Better Auth call from a test carries: the origin it trusts. */
export const authHeaders = { origin: TEST_PUBLIC_URL, 'content-type': 'application/json' };

export function uniqueEmail(prefix = 'user'): string {
  return `${prefix}-${randomBytes(5).toString('hex')}@example.com`;
}

/** Session cookies from a response, ready to send back as a `cookie` header. */
export function sessionCookie(setCookie: string | string[] | undefined): string {
  const list = Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : [];
  return list.map((cookie) => cookie.split(';')[0]).join('; ');
}

/** What a test may choose for a user it signs up; the rest is made up. */
export interface SignUpOptions {
  email?: string;
  password?: string;
  ip?: string;
}

/** Signs up a user (e-mail verification off, as `createTestApp` sets by default) and returns their session. */
export async function signUpUser(app: App, options: SignUpOptions = {}): Promise<TestUser> {
  const email = options.email ?? uniqueEmail();
  const password = options.password ?? 'correct horse battery';
  const response = await app.inject({
    method: 'POST',
    url: '/api/auth/sign-up/email',
    headers: authHeaders,
    remoteAddress: options.ip ?? randomIp(),
    payload: { email, password, name: email.split('@')[0] },
  });
  if (response.statusCode !== 200) throw new Error(`sign-up failed: ${response.statusCode} ${response.body}`);
  const body = response.json() as { user: { id: string } };
  return { id: body.user.id, email, password, cookie: sessionCookie(response.headers['set-cookie']) };
}

/** A different address per call, so per-IP rate limits in one test do not leak into another. */
export function randomIp(): string {
  const bytes = randomBytes(3);
  return `10.${bytes[0]}.${bytes[1]}.${bytes[2]}`;
}

/**
 * One signed-up user per name on `t` (from `useTestApp`), filled in by a beforeAll hook that runs
 * after the app's; `options` may give some of them an address or password.
 */
export function useSignedUpUsers<Name extends string>(t: TestApp, names: readonly Name[], options: Partial<Record<Name, SignUpOptions>> = {}): Record<Name, TestUser> {
  const users = Object.fromEntries(names.map((name) => [name, {} as TestUser])) as Record<Name, TestUser>;
  beforeAll(async () => {
    const signedUp = await Promise.all(names.map((name) => signUpUser(t.app, options[name])));
    names.forEach((name, index) => Object.assign(users[name], signedUp[index]));
  });
  return users;
}
