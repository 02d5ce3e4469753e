import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readOutbox } from '../testing/outbox-reader.js';
import { freePort, migratedDataDir, startServer, waitForHealth } from '../testing/server-process.js';

// The server's own log, from a process started as `npm start` starts it. A file of its own: it
// reaches no test database, so it runs once, with the other process tests (observability.test.ts,
// which does, runs on PGlite and on Postgres).
describe('the log of a real run', () => {
  it('writes no e-mail address, token or cookie to a real run’s log, and a request id on each request line', async () => {
    const port = await freePort();
    const dataDir = migratedDataDir('blog-logs-');
    const publicUrl = `http://localhost:${port}`;
    const server = startServer({ PORT: String(port), DATA_DIR: dataDir, PUBLIC_URL: publicUrl, LOG_LEVEL: 'debug', AUTH_REQUIRE_EMAIL_VERIFICATION: 'false' });
    await waitForHealth(port, 180_000);
    const base = `http://127.0.0.1:${port}`;
    const headers = { origin: publicUrl, 'content-type': 'application/json' };
    const email = `logged-${randomBytes(5).toString('hex')}@example.com`;
    const password = 'a long enough password';
    const signUp = await fetch(`${base}/api/auth/sign-up/email`, { method: 'POST', headers, body: JSON.stringify({ email, password, name: 'Logged' }) });
    expect(signUp.status).toBe(200);
    const cookie = signUp.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
    await fetch(`${base}/api/auth/sign-in/email`, { method: 'POST', headers, body: JSON.stringify({ email, password: 'a wrong password!' }) });
    await fetch(`${base}/api/auth/sign-in/magic-link`, { method: 'POST', headers, body: JSON.stringify({ email }) });
    let link: string | undefined;
    for (let tries = 0; tries < 100 && !link; tries += 1) {
      link = (await readOutbox(path.join(dataDir, 'mail'))).find((mail) => mail.to.includes(email))?.links[0];
      if (!link) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const token = new URL(link!).searchParams.get('token')!;
    expect(token.length).toBeGreaterThan(10);
    await fetch(`${base}/api/auth/magic-link/verify?token=${encodeURIComponent(token)}`, { redirect: 'manual' });
    await fetch(`${base}/api/contact`, { method: 'POST', headers, body: JSON.stringify({ email, message: 'Hello from the log test.' }) });
    await fetch(`${base}/api/account`, { headers: { cookie } });
    await fetch(`${base}/api/blogs?page=1`, { headers: { cookie } });

    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    const log = server.stdout() + server.stderr();
    const sessionValue = decodeURIComponent(cookie.split('=')[1]!.split(';')[0]!).split('.')[0]!;
    expect(log).toContain('incoming request');
    expect(log).not.toContain(email);
    expect(log).not.toContain(email.split('@')[0]!);
    expect(log.split("\n").filter((line) => line.includes(token))).toEqual([]);
    expect(log).not.toContain(sessionValue);
    const requestLines = log.split('\n').filter((line) => line.includes('"req"'));
    expect(requestLines.length).toBeGreaterThan(5);
    for (const line of requestLines) expect(JSON.parse(line).reqId).toMatch(/^[0-9a-f-]{36}$/);
  }, 300_000);
});
