import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { postBlog } from '../testing/test-blogs.js';
import { authHeaders, randomIp, signUpUser, type TestUser } from '../testing/test-users.js';
import { NUL_MESSAGE } from './bad-characters.js';

const NUL_TEXT = 'before\u0000after';

interface OpenApiOperation {
  parameters?: { name: string; in: 'path' | 'query' | 'header' | 'cookie'; schema?: JsonSchema }[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
}
interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
}

/** Values that no field of ours accepts as they are: a NUL, far too long, or of the wrong type. */
const HOSTILE_VALUES: unknown[] = [NUL_TEXT, 'x'.repeat(70_000), -1, Number.POSITIVE_INFINITY, 'NaN', true, null, [], {}, ['a', 'b'], { nested: NUL_TEXT }];
/** The same as they travel in a path or a query string. */
const HOSTILE_URL_TEXT = ['%00', 'a%00b', 'x'.repeat(5_000), '-1', '1e309', 'NaN', '%FF%FE', '..%2F..%2Fetc', '%20', '[]', '{}'];

function bodyVariants(schema: JsonSchema | undefined): unknown[] {
  const variants: unknown[] = [...HOSTILE_VALUES];
  const fields = Object.keys(schema?.properties ?? {});
  const plain = Object.fromEntries(fields.map((name) => [name, 'text']));
  for (const field of fields) {
    for (const value of HOSTILE_VALUES) variants.push({ ...plain, [field]: value });
  }
  variants.push({ ...plain, [NUL_TEXT]: 'a key with a NUL' });
  return variants;
}

describe('bad characters are bad input', () => {
  let ctx: TestApp;
  let user: TestUser;
  let blogId = '';

  beforeAll(async () => {
    // Limits scaled far up: the fuzzer sends thousands of requests from one address.
    ctx = await createTestApp({ RATE_LIMIT_SCALE: '1000' });
    user = await signUpUser(ctx.app);
    blogId = (await postBlog(ctx.app, user, { title: 'A blog to aim at', blog: 'Some text.' })).id;
  }, 60_000);
  afterAll(() => ctx?.close());

  it.each([
    ['a title', { title: NUL_TEXT, blog: 'Text.' }],
    ['a blog body', { title: 'Title', blog: NUL_TEXT }],
  ])('a NUL in %s of a new blog is a 400 with the error shape, and nothing is saved', async (_name, fields) => {
    const boundary = '----nul-test';
    const payload = Object.entries(fields)
      .map(([name, value]) => `--${boundary}\r\ncontent-disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)
      .join('').concat(`--${boundary}--\r\n`);
    const before = await ctx.database.db.selectFrom('blogs').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/blogs',
      headers: { cookie: user.cookie, origin: ctx.config.publicUrl, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: 'BAD_REQUEST', message: NUL_MESSAGE });
    const after = await ctx.database.db.selectFrom('blogs').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });

  it.each([
    ['a comment', 'POST', (): string => `/api/blogs/${blogId}/comments`, { body: NUL_TEXT }],
    ['a report', 'POST', (): string => '/api/reports', { targetType: 'blog', targetId: '00000000-0000-4000-8000-000000000000', reason: 'spam', details: NUL_TEXT }],
    ['a contact message', 'POST', (): string => '/api/contact', { email: 'reader@example.com', message: NUL_TEXT }],
    ['an author id', 'GET', (): string => '/api/authors/a%00b/blogs?page=1', undefined],
    ['a search', 'GET', (): string => '/api/search?searchTerm=a%00b', undefined],
  ] as const)('a NUL in %s is a 400 with the error shape', async (_name, method, url, payload) => {
    const response = await ctx.app.inject({ method, url: url(), headers: { cookie: user.cookie, origin: ctx.config.publicUrl }, payload });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: 'BAD_REQUEST', message: NUL_MESSAGE });
  });

  it('every /api/auth/* error has the error shape, a NUL in the path or body included', async () => {
    const cases = [
      { method: 'GET' as const, url: '/api/auth/%00' },
      { method: 'GET' as const, url: '/api/auth/no-such-endpoint' },
      { method: 'POST' as const, url: '/api/auth/no-such-endpoint', payload: {} },
      { method: 'POST' as const, url: '/api/auth/sign-in/email', payload: { email: `a${NUL_TEXT}@example.com`, password: 'whatever it is' } },
      { method: 'POST' as const, url: '/api/auth/sign-in/email', payload: { email: 'nobody@example.com', password: 'wrong password' } },
      { method: 'POST' as const, url: '/api/auth/sign-up/email', payload: { email: 'not an address', password: 'x', name: 'n' } },
    ];
    for (const request of cases) {
      const response = await ctx.app.inject({ ...request, headers: authHeaders, remoteAddress: randomIp() });
      expect(response.statusCode, request.url).toBeGreaterThanOrEqual(400);
      expect(response.statusCode, request.url).toBeLessThan(500);
      const body = response.json() as { error?: unknown; message?: unknown };
      expect(typeof body.error, `${request.url}: ${response.body}`).toBe('string');
      expect(typeof body.message, `${request.url}: ${response.body}`).toBe('string');
    }
  });

  it('no route of the OpenAPI document answers 5xx to NUL, overlong or wrong-typed values', async () => {
    const doc = (await ctx.app.inject({ method: 'GET', url: '/api/openapi.json' })).json() as { paths: Record<string, Record<string, OpenApiOperation>> };
    const failures: string[] = [];
    let sent = 0;
    const send = async (method: string, url: string, signedIn: boolean, payload?: unknown) => {
      const headers: Record<string, string> = { origin: ctx.config.publicUrl, 'x-forwarded-for': randomIp() };
      if (signedIn) headers.cookie = user.cookie;
      if (payload !== undefined) headers['content-type'] = 'application/json';
      const response = await ctx.app.inject({ method: method as 'GET', url, headers, remoteAddress: randomIp(), payload: payload === undefined ? undefined : JSON.stringify(payload) });
      sent += 1;
      const shape = response.headers['content-type']?.includes('json') ? (response.json() as Record<string, unknown>) : undefined;
      if (response.statusCode >= 500) failures.push(`${method} ${url.slice(0, 120)} ${JSON.stringify(payload)?.slice(0, 80)} → ${response.statusCode} ${response.body.slice(0, 200)}`);
      else if (response.statusCode >= 400 && (!shape || typeof shape.error !== 'string' || typeof shape.message !== 'string')) {
        failures.push(`${method} ${url.slice(0, 120)} → ${response.statusCode} without the error shape: ${response.body.slice(0, 200)}`);
      }
    };

    for (const [template, operations] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        const verb = method.toUpperCase();
        const pathParams = (operation.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name);
        const queryParams = (operation.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name);
        const fill = (value: string) => template.replace(/\{(\w+)\}/g, () => value);
        const valid = template.replace(/\{(\w+)\}/g, () => String(blogId));
        for (const signedIn of [false, true]) {
          for (const text of HOSTILE_URL_TEXT) {
            if (pathParams.length > 0) await send(verb, fill(text), signedIn);
            for (const name of queryParams) await send(verb, `${valid}?${name}=${text}`, signedIn);
          }
          const jsonSchema = operation.requestBody?.content?.['application/json']?.schema;
          if (jsonSchema) for (const body of bodyVariants(jsonSchema)) await send(verb, valid, signedIn, body);
        }
      }
    }
    expect(sent).toBeGreaterThan(500);
    expect(failures).toEqual([]);
  }, 300_000);
});
