import { readFileSync } from 'node:fs';
import { betterAuth } from 'better-auth';
import { twoFactor } from 'better-auth/plugins/two-factor';
import { describe, expect, it } from 'vitest';
import { post } from '../testing/auth-test-kit.js';
import { TEST_PUBLIC_URL, useTestApp } from '../testing/test-app.js';
import { keyOfUri, totp } from '../testing/totp.js';
import { signUpUser } from '../testing/test-users.js';
import { hashPassword, verifyPassword } from './password-hashing.js';
import { PENDING_SECOND_STEP } from './second-factor.js';

/**
 * second-factor.ts writes the `twoFactor` plugin's pending second step by hand for the ways of
 * signing in the plugin does not hold (better-auth/better-auth#10322, #11287). These tests fail on
 * any change of that format, and on a version of better-auth other than the one pinned: an upgrade
 * starts here (docs/runtime.md, "Upgrading better-auth").
 */

const packageJson = (file: string) => JSON.parse(readFileSync(new URL(file, import.meta.url), 'utf8')) as { version: string; dependencies: Record<string, string> };

describe('better-auth and its plugins are the versions pinned', () => {
  it('package.json names exact versions, and they are the ones installed', () => {
    const { dependencies } = packageJson('../../../package.json');
    for (const name of ['better-auth', '@better-auth/passkey']) {
      expect(dependencies[name], name).toMatch(/^\d+\.\d+\.\d+$/);
      expect(packageJson(`../../../node_modules/${name}/package.json`).version, name).toBe(dependencies[name]);
    }
  });
});

const now = () => Math.floor(Date.now() / 1000);
const byIdentifier = (a: { identifier: string }, b: { identifier: string }) => a.identifier.localeCompare(b.identifier);
const step = PENDING_SECOND_STEP;

describe('the twoFactor plugin’s pending step is the one second-factor.ts writes', () => {
  const t = useTestApp();

  /** The plugin alone on the site's database, with nothing of ours: its own `/sign-in/email` hook writes the step. */
  const pluginOnly = () =>
    betterAuth({
      baseURL: TEST_PUBLIC_URL,
      basePath: '/api/auth',
      secret: t.config.authSecret,
      database: { db: t.database.db, type: 'postgres' },
      telemetry: { enabled: false },
      logger: { disabled: true },
      emailAndPassword: { enabled: true, password: { hash: hashPassword, verify: verifyPassword } },
      advanced: { defaultCookieAttributes: { httpOnly: true, sameSite: 'lax', secure: false } },
      plugins: [twoFactor({ allowPasswordless: true })],
    });

  /** What a sign-in's answer left: its cookie (name, attributes, signed value) and the two verification rows it names. */
  async function pendingStepOf(setCookies: string[], userId: string) {
    const cookies = setCookies.filter((cookie) => !/^[^=]+=;/.test(cookie));
    const pending = cookies.find((cookie) => cookie.split('=')[0]!.endsWith(`.${step.cookie}`));
    expect(pending, cookies.join('\n')).toBeDefined();
    const [pair, ...attributes] = pending!.split(';').map((part) => part.trim());
    const [name, raw] = [pair!.slice(0, pair!.indexOf('=')), pair!.slice(pair!.indexOf('=') + 1)];
    // A signed cookie: `<value>.<base64 HMAC-SHA256>`, URI-encoded.
    const signed = /^(.+)\.([A-Za-z0-9+/]{43}=)$/.exec(decodeURIComponent(raw!));
    expect(signed, raw).not.toBeNull();
    const identifier = signed![1]!;
    const rows = await t.database.db
      .selectFrom('verification')
      .select(['identifier', 'value', 'expiresAt'])
      .where('identifier', 'in', [identifier, `${step.attemptsPrefix}${identifier}`])
      .execute();
    return {
      name,
      attributes: attributes.map((attribute) => attribute.toLowerCase()).sort(),
      identifier: new RegExp(`^${step.identifierPrefix}[A-Za-z0-9_-]{${step.identifierLength}}$`).test(identifier),
      rows: rows
        .map((row) => ({
          identifier: row.identifier.replace(identifier, '<id>'),
          value: row.value.replace(userId, '<user>'),
          // Seconds left, to the nearest ten.
          lifetime: Math.round((new Date(row.expiresAt).getTime() - Date.now()) / 10_000) * 10,
        }))
        .sort(byIdentifier),
      cookie: pair!,
    };
  }

  const expected = {
    name: `better-auth.${step.cookie}`,
    attributes: [`max-age=${step.seconds}`, 'path=/', 'httponly', 'samesite=lax'].sort(),
    identifier: true,
    rows: [
      { identifier: '<id>', value: '<user>', lifetime: step.seconds },
      { identifier: `${step.attemptsPrefix}<id>`, value: step.firstAttempts, lifetime: step.seconds },
    ].sort(byIdentifier),
  };

  it('a password sign-in through the plugin alone, and one through the site, leave the same step; the plugin finishes ours', async () => {
    const user = await signUpUser(t.app);
    const enabled = await post(t.app, '/api/auth/two-factor/enable', { password: user.password }, { cookie: user.cookie });
    const key = keyOfUri(enabled.json<{ totpURI: string }>().totpURI);
    expect((await post(t.app, '/api/auth/two-factor/verify-totp', { code: totp(key, now()) }, { cookie: user.cookie })).statusCode).toBe(200);
    const signIn = { email: user.email, password: user.password };

    const plugin = pluginOnly();
    const theirs = await plugin.handler(
      new Request(`${TEST_PUBLIC_URL}/api/auth/sign-in/email`, { method: 'POST', headers: { 'content-type': 'application/json', origin: TEST_PUBLIC_URL }, body: JSON.stringify(signIn) }),
    );
    expect(theirs.status).toBe(200);
    const theirStep = await pendingStepOf(theirs.headers.getSetCookie(), user.id);
    expect(theirStep).toMatchObject(expected);

    // The site's password sign-in is challenged by second-factor.ts (its hook runs before the plugin's).
    const ours = await post(t.app, '/api/auth/sign-in/email', signIn);
    expect(ours.statusCode, ours.body).toBe(200);
    const setCookie = ours.headers['set-cookie'];
    const ourStep = await pendingStepOf(Array.isArray(setCookie) ? setCookie : [String(setCookie)], user.id);
    expect(ourStep).toMatchObject(expected);
    expect(ours.json()).toEqual(await theirs.json());

    // The plugin's own endpoint, with nothing of ours, takes the step second-factor.ts wrote.
    const verified = await plugin.handler(
      new Request(`${TEST_PUBLIC_URL}/api/auth/two-factor/verify-totp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: TEST_PUBLIC_URL, cookie: ourStep.cookie },
        body: JSON.stringify({ code: totp(key, now()) }),
      }),
    );
    expect(verified.status, await verified.clone().text()).toBe(200);
    expect(verified.headers.getSetCookie().some((cookie) => cookie.startsWith('better-auth.session_token=') && !cookie.startsWith('better-auth.session_token=;'))).toBe(true);
  });
});
