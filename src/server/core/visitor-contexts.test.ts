import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { TEST_PUBLIC_URL, useTestApp } from '../testing/test-app.js';
import { randomIp, signUpUser, type TestUser } from '../testing/test-users.js';
import { limitedPerUser, visitorContext, type VisitorContextDeps } from './visitor-contexts.js';

/**
 * Issue 57: who may call a route is its context's to say, once (`app.ts`). Through the real app:
 * the guard answers before the body or the query is judged, and a signed-in context's answers
 * (its 401 too) are private.
 */
describe('the contexts of the real app', () => {
  const t = useTestApp();
  let reader: TestUser;
  let editor: TestUser;

  beforeAll(async () => {
    [reader, editor] = await Promise.all([signUpUser(t.app), signUpUser(t.app)]);
    await t.database.db.updateTable('user').set({ role: 'reader' }).where('id', '=', reader!.id).execute();
    await t.database.db.updateTable('user').set({ role: 'editor' }).where('id', '=', editor!.id).execute();
  });

  const call = (method: 'GET' | 'PUT' | 'POST', url: string, user?: TestUser, payload?: object) =>
    t.app.inject({ method, url, headers: { origin: TEST_PUBLIC_URL, ...(user ? { cookie: user.cookie } : {}) }, remoteAddress: randomIp(), ...(payload ? { payload } : {}) });

  it('answers 401 to a signed-out write before judging its body, privately', async () => {
    const response = await call('PUT', '/api/account/profile', undefined, { handle: 1 });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ error: 'UNAUTHORIZED' });
    expect(response.headers['cache-control']).toBe('private, no-store');
    // Signed in, the same body is the 400 it is.
    expect((await call('PUT', '/api/account/profile', reader, { handle: 1 })).statusCode).toBe(400);
  });

  it('answers 404 to an account without the permission before judging the query, signed out or in', async () => {
    for (const user of [undefined, reader, editor]) {
      const response = await call('GET', '/api/admin/people?page=nonsense', user);
      expect(response.statusCode, user?.email ?? 'signed out').toBe(404);
      expect(response.json()).toEqual({ error: 'NOT_FOUND', message: 'Not found.' });
    }
    // An editor moderates: the moderators' context lets them through.
    expect((await call('GET', '/api/moderation/access', editor)).statusCode).toBe(200);
    expect((await call('GET', '/api/moderation/access', reader)).statusCode).toBe(404);
  });
});

/** The factory itself, on a bare Fastify instance: what the real app's contexts are made of. */
describe('visitorContext', () => {
  const alice = { id: 'u1', email: 'alice@example.com', role: 'reader' as const };
  const limited: string[] = [];
  const deps = (signedIn: boolean, staff: string[] = []): VisitorContextDeps => ({
    config: { moderatorEmails: [] } as unknown as VisitorContextDeps['config'],
    sessions: {
      optionalUser: async () => (signedIn ? alice : null),
      requireSession: async () => {
        if (!signedIn) throw Object.assign(new Error('You need to sign in first.'), { statusCode: 401 });
        return { user: alice, session: { id: 's1', createdAt: new Date(0) } };
      },
    },
    limiter: {
      enforce: async (key) => {
        limited.push(key);
      },
    },
    staffSecondFactor: async (request) => {
      staff.push(request.url);
    },
  });
  const appWith = async (contextDeps: VisitorContextDeps, visitors: 'anyone' | 'signed-in', staffSecondFactor = true) => {
    const app = Fastify().withTypeProvider<ZodTypeProvider>();
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    await app.register(
      visitorContext(contextDeps, { visitors, staffSecondFactor }, [
        (context) => {
          context.get('/mine', async (request) => ({ id: request.user.id, session: request.userSession.id }));
          context.post('/write', { schema: { body: z.object({ text: z.string() }) }, config: limitedPerUser('write', { max: 1, windowSeconds: 60 }) }, async () => ({ ok: true }));
        },
      ]),
    );
    return app;
  };

  it('gives the handler the signed-in user, makes its GETs private, and counts the write per account after validation', async () => {
    const app = await appWith(deps(true), 'signed-in');
    const mine = await app.inject({ method: 'GET', url: '/mine' });
    expect(mine.json()).toEqual({ id: 'u1', session: 's1' });
    expect(mine.headers['cache-control']).toBe('private, no-store');
    limited.length = 0;
    expect((await app.inject({ method: 'POST', url: '/write', payload: { text: 1 } })).statusCode).toBe(400);
    expect(limited).toEqual([]);
    expect((await app.inject({ method: 'POST', url: '/write', payload: { text: 'a' } })).statusCode).toBe(200);
    expect(limited).toEqual(['write:u1']);
  });

  it('answers 401 before validation on a signed-in context', async () => {
    const app = await appWith(deps(false), 'signed-in');
    expect((await app.inject({ method: 'POST', url: '/write', payload: { text: 1 } })).statusCode).toBe(401);
  });

  it('applies the staff rule only where the context has it', async () => {
    const seen: string[] = [];
    await (await appWith(deps(true, seen), 'signed-in', true)).inject({ method: 'GET', url: '/mine' });
    await (await appWith(deps(true, seen), 'signed-in', false)).inject({ method: 'GET', url: '/mine' });
    expect(seen).toEqual(['/mine']);
  });

  it('refuses, at start-up, a public GET that declares no caching, and a public route with a limit per account', async () => {
    await expect(appWith(deps(true), 'anyone')).rejects.toThrow('GET /mine declares no caching');
    const app = Fastify();
    const publicWrite = visitorContext(deps(true), { visitors: 'anyone', staffSecondFactor: true }, [
      (context) => {
        context.post('/write', { config: limitedPerUser('write', { max: 1, windowSeconds: 60 }) }, async () => ({ ok: true }));
      },
    ]);
    await expect(app.register(publicWrite)).rejects.toThrow('POST /write limits per user but anyone may call it');
  });
});
