import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { startPostgresAppProcess } from '../testing/server-process.js';

// Runs in the `postgres` Vitest project only (see vitest.config.ts), where TEST_DATABASE_URL is set.
describe('remembered sessions across app processes on one Postgres', () => {
  it('a sign-out through one process, and a suspension in the database, end the session in the other at once', async () => {
    const secret = randomBytes(32).toString('hex');
    const start = () => startPostgresAppProcess(secret, { SESSION_CACHE_SECONDS: '60' });
    const [first, second] = [await start(), await start()];
    const signUp = async () => {
      const response = await fetch(`${first.url}/api/auth/sign-up/email`, {
        method: 'POST',
        headers: { origin: first.url, 'content-type': 'application/json' },
        body: JSON.stringify({ email: `sessions-${randomBytes(4).toString('hex')}@example.com`, password: 'correct horse battery', name: 'sessions' }),
      });
      expect(response.status).toBe(200);
      const { user } = (await response.json()) as { user: { id: string } };
      return { id: user.id, cookie: response.headers.getSetCookie().map((value) => value.split(';')[0]).join('; ') };
    };
    // The second process reads the session twice: from then on it answers from memory.
    const accountOnSecond = (cookie: string) => fetch(`${second.url}/api/account`, { headers: { cookie } }).then((r) => r.status);
    const endsWithinASecond = async (cookie: string) => {
      const endedAt = Date.now();
      let status = 200;
      while (status === 200 && Date.now() - endedAt < 2_000) status = await accountOnSecond(cookie);
      expect(status).toBe(401);
      expect(Date.now() - endedAt).toBeLessThan(1_000);
    };

    const reader = await signUp();
    expect(await accountOnSecond(reader.cookie)).toBe(200);
    expect(await accountOnSecond(reader.cookie)).toBe(200);
    const out = await fetch(`${first.url}/api/auth/sign-out`, { method: 'POST', headers: { origin: first.url, cookie: reader.cookie, 'content-type': 'application/json' }, body: '{}' });
    expect(out.status).toBe(200);
    await endsWithinASecond(reader.cookie);

    // A suspension written by anyone (here: straight into the database) reaches the memory too.
    const suspended = await signUp();
    expect(await accountOnSecond(suspended.cookie)).toBe(200);
    expect(await accountOnSecond(suspended.cookie)).toBe(200);
    const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await client.connect();
    try {
      await client.query('update "user" set suspended_at = now() where id = $1', [suspended.id]);
    } finally {
      await client.end();
    }
    await endsWithinASecond(suspended.cookie);

    for (const { server } of [first, second]) {
      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
    }
  }, 120_000);
});
