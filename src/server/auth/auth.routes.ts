import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { AppDeps } from '../app-deps.js';
import { badRequest, notFound, unsupportedMediaType } from '../errors.js';
import { rejectNul } from '../http/bad-characters.js';
import { errorCodeForStatus } from '../http/error-handler.js';
import { CLIENT_IP_HEADER } from './auth.js';
import { createAuthGuards, type AuthRequest } from './auth-guards.js';
import { neverCached } from '../cache/route-caching.js';

const BASE_PATH = '/api/auth';
/** Headers a client could use to pretend to be another address; Fastify's `request.ip` decides. */
const SPOOFABLE_HEADERS = new Set(['x-forwarded-for', 'x-real-ip', 'cf-connecting-ip', 'forwarded', CLIENT_IP_HEADER]);
/** The JSON media types Better Auth accepts (`application/json`, `application/…+json`). */
const JSON_TYPE = /^application\/([a-z0-9.+-]*\+)?json$/i;
const FORM_TYPE = 'application/x-www-form-urlencoded';

interface ParsedAuthRequest extends AuthRequest {
  url: URL;
  /** The body handed to Better Auth: exactly what the guards read, re-encoded as JSON. */
  forwardBody?: { contentType: string; data: string | Uint8Array<ArrayBuffer> };
}

/**
 * Reads an auth request once, the way Better Auth would, and decides what Better Auth gets:
 * the URL with its dot segments resolved (the same URL our guards judged) and the body
 * re-encoded as plain JSON. So a form-encoded body, JSON behind a byte-order mark or a path
 * like `/api/auth/x/../sign-in/email` meets the same limits as the plain request.
 */
export function parseAuthRequest(request: FastifyRequest, publicUrl: string): ParsedAuthRequest {
  const url = new URL(request.url, publicUrl);
  if (!url.pathname.startsWith(`${BASE_PATH}/`)) throw notFound();
  const path = url.pathname.slice(BASE_PATH.length);
  const raw = Buffer.isBuffer(request.body) ? request.body : undefined;
  if (request.method === 'GET' || !raw || raw.length === 0) return { method: request.method, url, path, body: undefined };

  const contentType = (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  // A provider's form post goes to Better Auth as it came; no limit of ours applies there.
  if (path.startsWith('/callback/')) {
    return { method: request.method, url, path, body: undefined, forwardBody: { contentType: request.headers['content-type'] ?? '', data: new Uint8Array(raw) } };
  }
  let body: unknown;
  if (JSON_TYPE.test(contentType)) {
    // TextDecoder drops a leading byte-order mark, as the Fetch API's `json()` does.
    const text = new TextDecoder('utf-8', { fatal: false }).decode(raw);
    try {
      body = JSON.parse(text);
    } catch {
      throw badRequest('The request body is not valid JSON.');
    }
  } else if (contentType === FORM_TYPE) {
    body = Object.fromEntries(new URLSearchParams(raw.toString('utf8')));
  } else {
    throw unsupportedMediaType('Send the request body as JSON (Content-Type: application/json).');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw badRequest('The request body must be a JSON object.');
  rejectNul(body);
  return {
    method: request.method,
    url,
    path,
    body: body as Record<string, unknown>,
    forwardBody: { contentType: 'application/json', data: JSON.stringify(body) },
  };
}

export function toFetchRequest(request: FastifyRequest, parsed: ParsedAuthRequest): Request {
  const headers = new Headers();
  for (const [key, value] of Object.entries(request.headers)) {
    if (value === undefined || SPOOFABLE_HEADERS.has(key) || key === 'content-type' || key === 'content-length') continue;
    for (const item of Array.isArray(value) ? value : [value]) headers.append(key, item);
  }
  headers.set(CLIENT_IP_HEADER, request.ip);
  if (parsed.forwardBody) headers.set('content-type', parsed.forwardBody.contentType);
  return new Request(parsed.url, { method: request.method, headers, body: parsed.forwardBody?.data });
}

/**
 * Better Auth answers its errors as `{ code, message }`, or with no body at all (an unknown
 * endpoint's 404): every one leaves as the API's error shape, `{ error, message }`, keeping
 * Better Auth's own fields beside it for its client.
 */
export function authErrorBody(status: number, body: Buffer | null): Record<string, unknown> {
  // As in our own error handler, a 5xx says nothing of its cause.
  if (status >= 500 && status !== 503) return { error: 'INTERNAL', message: DEFAULT_MESSAGES[500] };
  let parsed: unknown;
  try {
    parsed = body && body.length > 0 ? JSON.parse(body.toString('utf8')) : undefined;
  } catch {
    parsed = undefined;
  }
  const fields = typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  const code = typeof fields.code === 'string' && fields.code ? fields.code : errorCodeForStatus(status);
  const message = typeof fields.message === 'string' && fields.message ? fields.message : (DEFAULT_MESSAGES[status] ?? 'The request could not be completed.');
  return { ...fields, error: code, message };
}

const DEFAULT_MESSAGES: Record<number, string> = {
  400: 'The request is not valid.',
  401: 'You need to sign in first.',
  403: 'You are not allowed to do that.',
  404: 'Not found.',
  405: 'That method is not allowed here.',
  429: 'Too many requests. Please wait a moment and try again.',
  500: 'Something went wrong on our side. Please try again.',
};

/**
 * Better Auth's endpoints this site does not offer: `list-sessions` answers every session's raw
 * token (Settings' sessions list is ours: GET /api/account/sessions, without tokens).
 */
const CLOSED_PATHS = new Set(['/list-sessions']);

/** A session row as Better Auth answers it: it carries the session's token, the cookie's secret. */
const isSession = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && 'token' in value && 'userId' in value && 'expiresAt' in value;

/**
 * Better Auth's JSON answer without the token of any session in it (`get-session` answers its
 * own, in `session.token`): the token is the HttpOnly cookie's value, which no script may read.
 * Null when nothing needed taking out.
 */
export function withoutSessionTokens(body: Buffer): Buffer | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    return null;
  }
  let stripped = false;
  const strip = (value: unknown) => {
    if (!isSession(value)) return;
    delete value.token;
    stripped = true;
  };
  const visit = (value: unknown) => {
    if (Array.isArray(value)) value.forEach(strip);
    else if (typeof value === 'object' && value !== null) {
      strip(value);
      for (const inner of Object.values(value)) (Array.isArray(inner) ? inner : [inner]).forEach(strip);
    }
  };
  visit(parsed);
  return stripped ? Buffer.from(JSON.stringify(parsed)) : null;
}

/** Mounts Better Auth's own endpoints at /api/auth/*, behind our guards. */
export const authRoutes: FastifyPluginAsync<AppDeps> = async (app, deps) => {
  const guards = createAuthGuards({ limiter: deps.limiter, config: deps.config, sessions: deps.sessions });
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 64 * 1024 }, (_request, body, done) => done(null, body));

  app.route({
    method: ['GET', 'POST'],
    url: `${BASE_PATH}/*`,
    schema: { hide: true },
    // Sessions and accounts: about the caller, never kept.
    config: neverCached,
    async handler(request, reply) {
      const parsed = parseAuthRequest(request, deps.config.publicUrl);
      if (CLOSED_PATHS.has(parsed.path.replace(/\/+$/, ''))) throw notFound();
      await guards(request, parsed);
      // Better Auth answers its own errors; anything else it throws (onAPIError.throw) goes to our error handler and its log.
      const response = await deps.auth.handler(toFetchRequest(request, parsed));
      void reply.status(response.status);
      response.headers.forEach((value, key) => {
        void reply.header(key, value);
      });
      const body = response.body ? Buffer.from(await response.arrayBuffer()) : null;
      if (response.status < 400) {
        const isJson = JSON_TYPE.test((response.headers.get('content-type') ?? '').split(';')[0]!.trim());
        const stripped = body && isJson ? withoutSessionTokens(body) : null;
        if (stripped) void reply.removeHeader('content-length');
        return reply.send(stripped ?? body);
      }
      // A 5xx Better Auth answered itself (an APIError it made of a failure): its message stays in the log.
      if (response.status >= 500) request.log.error({ status: response.status, answer: body?.toString('utf8').slice(0, 500) }, 'Better Auth answered a server error');
      void reply.removeHeader('content-length');
      return reply.type('application/json; charset=utf-8').send(authErrorBody(response.status, body));
    },
  });
};
