import { Writable } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../config.js';
import { authHeaders, signUpUser } from '../testing/test-users.js';
import { useTestApp } from '../testing/test-app.js';
import { multipart } from '../testing/multipart.js';
import { solidPng } from '../testing/image-fixtures.js';
import { loggerOptions } from './logging.js';

/** The production logger's options (serializers, redaction, the last scrub) at trace, its lines kept here. */
function capturedLogger() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
  const logger = { ...(loggerOptions(loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'trace', AUTH_SECRET: 'x'.repeat(32) })) as object), stream };
  return { lines, logger };
}

/** Whatever bypasses the app's log: Better Auth's default logger and better-call print through the console. */
function consoleWrites() {
  return (['error', 'warn', 'log', 'info', 'debug'] as const).map((method) => vi.spyOn(console, method).mockImplementation(() => undefined));
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('what the log keeps of requests, at trace', () => {
  const { lines, logger } = capturedLogger();
  const t = useTestApp({ LOG_LEVEL: 'trace' }, { logger });

  it('has no cookie, authorization header or token in any line, busboy’s options included', async () => {
    const user = await signUpUser(t.app);
    const sessionToken = decodeURIComponent(user.cookie.split('=')[1]!);
    const bearer = 'bearer-secret-4f7a9c';
    const form = await multipart({ title: 'A logged upload', blog: 'Its text.' }, { data: await solidPng(16, 16), filename: 'a.png', type: 'image/png' });
    const upload = await t.app.inject({
      method: 'POST',
      url: '/api/blogs',
      payload: form.payload,
      headers: { ...form.headers, origin: authHeaders.origin, cookie: user.cookie, authorization: `Bearer ${bearer}` },
    });
    expect(upload.statusCode, upload.body).toBe(201);
    const queryToken = 'query-token-81b2e4d6';
    await t.app.inject({ method: 'GET', url: `/auth?view=update_password&token=${queryToken}` });
    await t.app.inject({ method: 'GET', url: `/api/auth/verify-email?token=${queryToken}&callbackURL=%2F`, headers: { cookie: user.cookie } });
    const signIn = await t.app.inject({ method: 'POST', url: '/api/auth/sign-in/email', headers: authHeaders, payload: { email: user.email, password: user.password } });
    expect(signIn.statusCode).toBe(200);
    const newToken = decodeURIComponent(String(signIn.headers['set-cookie']).split(';')[0]!.split('=')[1]!);
    await t.app.inject({ method: 'GET', url: '/api/auth/get-session', headers: { cookie: `better-auth.session_token=${encodeURIComponent(newToken)}`, authorization: `Basic ${bearer}` } });

    // The lines that used to carry them were written (busboy's options at trace, with every header).
    expect(lines.some((line) => line.includes('Providing options to busboy'))).toBe(true);
    expect(lines.some((line) => line.includes('/auth?view=[redacted]&token=[redacted]'))).toBe(true);
    for (const secret of [sessionToken, sessionToken.split('.')[0]!, encodeURIComponent(sessionToken), newToken.split('.')[0]!, bearer, queryToken]) {
      expect(lines.filter((line) => line.includes(secret))).toEqual([]);
    }
    for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();
  });
});

describe('Better Auth’s own messages', () => {
  const { lines, logger } = capturedLogger();
  const t = useTestApp({ LOG_LEVEL: 'trace' }, { logger });

  it('are lines of the app’s log, never printed past it', async () => {
    const printed = consoleWrites();
    // Refused in Better Auth's own middleware: its default logger used to print these in colour.
    const refusedCallback = await t.app.inject({ method: 'GET', url: '/api/auth/verify-email?token=abc&callbackURL=https://evil.example/' });
    expect(refusedCallback.statusCode).toBe(403);
    const refusedRedirect = await t.app.inject({ method: 'POST', url: '/api/auth/request-password-reset', headers: authHeaders, payload: { email: 'someone@example.com', redirectTo: 'https://evil.example/' } });
    expect(refusedRedirect.statusCode).toBe(403);
    await t.app.inject({ method: 'POST', url: '/api/auth/sign-in/email', headers: authHeaders, payload: { email: 'nobody@example.com', password: 'a wrong password' } });
    for (const spy of printed) expect(spy).not.toHaveBeenCalled();
    expect(lines.some((line) => (JSON.parse(line) as { res?: { statusCode?: number } }).res?.statusCode === 403)).toBe(true);
    for (const line of lines) {
      // No ANSI colour (ESC, then `[`).
      expect(line).not.toContain(`${String.fromCharCode(27)}[`);
      expect(() => JSON.parse(line)).not.toThrow();
    }
  });

  it('log a failure inside Better Auth as an error with its stack, and answer the API’s 500', async () => {
    const printed = consoleWrites();
    const user = await signUpUser(t.app);
    // A table Better Auth needs is gone: the failure is not one of its own answers.
    await t.database.db.schema.alterTable('verification').renameTo('verification_gone').execute();
    try {
      const failed = await t.app.inject({ method: 'POST', url: '/api/auth/sign-in/magic-link', headers: authHeaders, payload: { email: user.email } });
      expect(failed.statusCode).toBe(500);
      expect(failed.json()).toEqual({ error: 'INTERNAL', message: 'Something went wrong on our side. Please try again.' });
      const errors = lines.map((line) => JSON.parse(line) as { level: number; err?: { stack?: string }; reqId?: string }).filter((line) => line.level >= 50);
      expect(errors.length).toBeGreaterThan(0);
      expect(errors.some((line) => line.reqId && line.err?.stack?.includes('verification'))).toBe(true);
      for (const spy of printed) expect(spy).not.toHaveBeenCalled();
    } finally {
      await t.database.db.schema.alterTable('verification_gone').renameTo('verification').execute();
    }
  });
});
