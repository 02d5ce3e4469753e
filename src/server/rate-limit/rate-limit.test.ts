import { describe, expect, it } from 'vitest';
import { BLOG_UPDATE_RATE_LIMIT } from '../blogs/blogs.routes.js';
import { loadConfig } from '../config.js';
import { CONTACT_RATE_LIMIT } from '../contact/contact.routes.js';
import { createTestApp, TEST_PUBLIC_URL, useTestApp } from '../testing/test-app.js';
import { PUBLIC_READ_LIMIT, storedRateLimitKey } from './rate-limit.js';
import { randomIp, signUpUser } from '../testing/test-users.js';
import { VOTE_RATE_LIMIT } from '../votes/votes.routes.js';

const scaled = (max: number, scale: number) => Math.max(1, Math.round(max * scale));

describe('RATE_LIMIT_SCALE', () => {
  it('defaults to 1, and must be a positive number', () => {
    expect(loadConfig({ DATA_DIR: '/tmp', AUTH_SECRET: 'x'.repeat(32) }).rateLimitScale).toBe(1);
    expect(loadConfig({ DATA_DIR: '/tmp', AUTH_SECRET: 'x'.repeat(32), RATE_LIMIT_SCALE: '2.5' }).rateLimitScale).toBe(2.5);
    expect(() => loadConfig({ DATA_DIR: '/tmp', AUTH_SECRET: 'x'.repeat(32), RATE_LIMIT_SCALE: '0' })).toThrow(/RATE_LIMIT_SCALE must be positive/);
    expect(() => loadConfig({ DATA_DIR: '/tmp', AUTH_SECRET: 'x'.repeat(32), RATE_LIMIT_SCALE: 'off' })).toThrow(/RATE_LIMIT_SCALE must be a number/);
  });

  it('raises every limit at once (contact: twice the messages at scale 2)', async () => {
    const t = await createTestApp({ RATE_LIMIT_SCALE: '2' });
    try {
      const ip = randomIp();
      const send = () =>
        t.app.inject({ method: 'POST', url: '/api/contact', headers: { origin: TEST_PUBLIC_URL }, remoteAddress: ip, payload: { email: 'a@example.com', message: 'hello there' } });
      for (let i = 0; i < CONTACT_RATE_LIMIT.max * 2; i++) expect((await send()).statusCode).toBe(201);
      expect((await send()).statusCode).toBe(429);
    } finally {
      await t.close();
    }
  });
});

/** Scaled down so the per-client limits trip after a handful of requests; the rule is the same at scale 1. */
describe('per-client limits on reading, voting and editing', () => {
  const SCALE = 0.01;
  const t = useTestApp({ RATE_LIMIT_SCALE: String(SCALE) });

  it('reading blogs: 429 with Retry-After past the limit, other readers served', async () => {
    const ip = randomIp();
    const read = (address = ip) => t.app.inject({ method: 'GET', url: '/api/blogs?page=1', remoteAddress: address });
    for (let i = 0; i < scaled(PUBLIC_READ_LIMIT.rule.max, SCALE); i++) expect((await read()).statusCode).toBe(200);
    const refused = await t.app.inject({ method: 'GET', url: '/api/blogs/00000000-0000-4000-8000-000000000000', remoteAddress: ip });
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({ error: 'TOO_MANY_REQUESTS', message: 'You are loading pages very fast. Please wait a moment and try again.' });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect((await read(randomIp())).statusCode).toBe(200);
  });

  it('voting and editing a blog: per client address (and editing per user)', async () => {
    const ip = randomIp();
    const owner = await signUpUser(t.app);
    const form = new FormData();
    form.append('title', 'Limited');
    form.append('blog', 'text');
    const encoded = new Response(form);
    const multipart = { 'content-type': encoded.headers.get('content-type')! };
    const payload = Buffer.from(await encoded.arrayBuffer());
    const created = await t.app.inject({ method: 'POST', url: '/api/blogs', headers: { origin: TEST_PUBLIC_URL, cookie: owner.cookie, ...multipart }, payload, remoteAddress: randomIp() });
    expect(created.statusCode).toBe(201);
    const id = (created.json() as { id: string }).id;

    const vote = () =>
      t.app.inject({ method: 'PUT', url: `/api/blogs/${id}/vote`, headers: { origin: TEST_PUBLIC_URL, cookie: owner.cookie }, payload: { direction: 'up' }, remoteAddress: ip });
    for (let i = 0; i < scaled(VOTE_RATE_LIMIT.max, SCALE); i++) expect((await vote()).statusCode).toBe(200);
    expect((await vote()).statusCode).toBe(429);

    const edit = (address: string) =>
      t.app.inject({ method: 'PATCH', url: `/api/blogs/${id}`, headers: { origin: TEST_PUBLIC_URL, cookie: owner.cookie, ...multipart }, payload, remoteAddress: address });
    for (let i = 0; i < scaled(BLOG_UPDATE_RATE_LIMIT.max, SCALE); i++) expect((await edit(ip)).statusCode).toBe(200);
    const refused = await edit(ip);
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // The same user from elsewhere is held by the per-user count too.
    expect((await edit(randomIp())).statusCode).toBe(429);
  });
});

describe('limits counted in memory and added to the shared counters in batches', () => {
  const t = useTestApp();

  it('refuses past the limit at once in one process, and across processes once the counts are shared', async () => {
    const rule = { max: 4, windowSeconds: 60 };
    const { createRateLimiter } = await import('./rate-limit.js');
    // Two limiters on one database: two app processes.
    const [first, second] = [createRateLimiter({ db: t.database.db, scale: 1, secret: t.config.authSecret }), createRateLimiter({ db: t.database.db, scale: 1, secret: t.config.authSecret })];
    const key = `batched:${randomIp()}`;
    for (let i = 0; i < 4; i++) first.enforceBatched(key, rule);
    expect(() => first.enforceBatched(key, rule)).toThrow(expect.objectContaining({ statusCode: 429 }));

    const shared = `batched:${randomIp()}`;
    for (let i = 0; i < 3; i++) first.enforceBatched(shared, rule);
    for (let i = 0; i < 3; i++) second.enforceBatched(shared, rule);
    // Within a moment both processes' counts are in the database.
    const sharedCount = async () => (await t.database.db.selectFrom('rate_limits').select('count').where('key', '=', storedRateLimitKey(shared, t.config.authSecret)).executeTakeFirst())?.count;
    const started = Date.now();
    while ((await sharedCount()) !== 6 && Date.now() - started < 3_000) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await sharedCount()).toBe(6);
    // Each process is still under the limit by its own count (4), but its next batch brings back the
    // shared count (8 > 4): from then on it refuses (the gate, checked here with a limit of its own too high to trip).
    const refusedBy = async (limiter: typeof first) => {
      const waited = Date.now();
      while (Date.now() - waited < 3_000) {
        try {
          limiter.enforceInMemory(shared, { max: 1_000, windowSeconds: 60 });
        } catch {
          return true;
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return false;
    };
    // (The process whose batch landed second already saw 6 and refuses; the other learns it now.)
    for (const limiter of [first, second]) {
      try {
        limiter.enforceBatched(shared, rule);
      } catch {
        // Already refusing.
      }
    }
    expect(await refusedBy(first)).toBe(true);
    expect(await refusedBy(second)).toBe(true);
  });
});

describe('what the counters keep of a reader', () => {
  const t = useTestApp();

  it('keeps no address (nor e-mail address) in any key, ours or Better Auth’s, and still counts', async () => {
    const address = randomIp();
    const email = `counted-${address.replaceAll('.', '-')}@example.com`;
    // Anonymous: a search (counted in a batch), a contact message, a failed sign-in (Better Auth's and ours).
    expect((await t.app.inject({ method: 'GET', url: '/api/search?searchTerm=apple', remoteAddress: address })).statusCode).toBe(200);
    await t.app.inject({ method: 'POST', url: '/api/contact', remoteAddress: address, headers: { origin: TEST_PUBLIC_URL, 'content-type': 'application/json' }, payload: { email, message: 'Counted, not named.' } });
    const signIn = await t.app.inject({ method: 'POST', url: '/api/auth/sign-in/email', remoteAddress: address, headers: { origin: TEST_PUBLIC_URL, 'content-type': 'application/json' }, payload: { email, password: 'not the password' } });
    expect(signIn.statusCode).toBe(401);

    const searchKey = storedRateLimitKey(`search:${address}`, t.config.authSecret);
    await expect.poll(async () => (await t.database.db.selectFrom('rate_limits').select('count').where('key', '=', searchKey).executeTakeFirst())?.count).toBe(1);
    const signInKey = storedRateLimitKey(`auth-ip:${address}|/sign-in/email`, t.config.authSecret);
    expect((await t.database.db.selectFrom('rate_limits').select('count').where('key', '=', signInKey).executeTakeFirst())?.count).toBe(1);
    const keys = (await t.database.db.selectFrom('rate_limits').select('key').execute()).map((row) => row.key);
    expect(keys.length).toBeGreaterThanOrEqual(4);
    for (const named of [address, email, email.split('@')[0]!]) expect(keys.filter((key) => key.includes(named))).toEqual([]);
    // Better Auth's own table is not written any more.
    expect(await t.database.db.selectFrom('rateLimit').select('key').execute()).toEqual([]);
  });
});
