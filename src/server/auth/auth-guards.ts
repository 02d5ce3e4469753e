import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { Config } from '../config.js';
import type { Database } from '../db/schema.js';
import { forbidden } from '../errors.js';
import { enforceRateLimit, type RateLimitRule } from '../rate-limit/rate-limit.js';

const FIFTEEN_MINUTES = 15 * 60;

interface AddressLimit {
  /** Better Auth paths (below /api/auth) this limit counts together. */
  paths: string[];
  rule: RateLimitRule;
  /** What the person is told once the address is over the limit. */
  message: string;
}

/**
 * Limits per e-mail address, on top of Better Auth's limits per client address: a spread of
 * addresses cannot guess one account's password, flood one mailbox or burn one code's tries.
 */
export const AUTH_ADDRESS_LIMITS: Record<string, AddressLimit> = {
  'sign-in': {
    paths: ['/sign-in/email'],
    rule: { max: 10, windowSeconds: FIFTEEN_MINUTES },
    message: 'Too many sign-in attempts for this e-mail address. Please wait 15 minutes, or reset your password.',
  },
  'sign-up': {
    paths: ['/sign-up/email'],
    rule: { max: 5, windowSeconds: FIFTEEN_MINUTES },
    message: 'Too many sign-up attempts for this e-mail address. Please wait 15 minutes and try again.',
  },
  'password-reset': {
    paths: ['/request-password-reset', '/email-otp/request-password-reset', '/forget-password/email-otp'],
    rule: { max: 3, windowSeconds: FIFTEEN_MINUTES },
    message: 'Several reset e-mails went to this address already. Please check your inbox, or wait 15 minutes.',
  },
  'magic-link': {
    paths: ['/sign-in/magic-link'],
    rule: { max: 3, windowSeconds: FIFTEEN_MINUTES },
    message: 'Several sign-in links went to this address already. Please check your inbox, or wait 15 minutes.',
  },
  'otp-send': {
    paths: ['/email-otp/send-verification-otp'],
    rule: { max: 3, windowSeconds: FIFTEEN_MINUTES },
    message: 'Several codes went to this address already. Please check your inbox, or wait 15 minutes.',
  },
  'otp-verify': {
    paths: ['/sign-in/email-otp', '/email-otp/verify-email', '/email-otp/check-verification-otp', '/email-otp/reset-password'],
    rule: { max: 10, windowSeconds: FIFTEEN_MINUTES },
    message: 'Too many codes were tried for this e-mail address. Please wait 15 minutes and ask for a new code.',
  },
};

const LIMIT_BY_PATH = new Map<string, AddressLimit & { name: string }>(
  Object.entries(AUTH_ADDRESS_LIMITS).flatMap(([name, limit]) => limit.paths.map((path) => [`/api/auth${path}`, { name, ...limit }] as const)),
);

export interface AuthGuardDeps {
  db: Kysely<Database>;
  config: Config;
}

/** Our own checks on auth requests, run before Better Auth sees them. */
export function createAuthGuards({ db, config }: AuthGuardDeps) {
  const ownOrigin = new URL(config.publicUrl).origin;
  return async (request: FastifyRequest): Promise<void> => {
    if (request.method !== 'POST') return;
    const path = request.url.split('?')[0] ?? '';
    // A provider that answers by form post (Apple) posts from its own origin; Better Auth checks its state.
    if (path.startsWith('/api/auth/callback/')) return;
    assertSameOrigin(request, ownOrigin);
    const limit = LIMIT_BY_PATH.get(path);
    if (!limit) return;
    const email = emailOfBody(request.body);
    if (!email) return;
    await enforceRateLimit(db, `auth-address:${limit.name}:${email}`, limit.rule, limit.message);
  };
}

/**
 * Refuses a state-changing request that a browser sent from another site. Browsers send
 * `Origin` with every POST, PUT, PATCH and DELETE, same-origin ones included, so a request
 * without it (or with `null`) did not come from our pages.
 */
export function assertSameOrigin(request: FastifyRequest, ownOrigin: string): void {
  const origin = request.headers.origin ?? refererOrigin(request.headers.referer);
  if (origin !== ownOrigin) throw forbidden('This request must come from this site’s own pages (cross-site requests are refused).');
}

function refererOrigin(referer: string | undefined): string | undefined {
  if (!referer || !URL.canParse(referer)) return undefined;
  return new URL(referer).origin;
}

/** The address a Better Auth request is about, normalised as Better Auth stores it. */
function emailOfBody(body: unknown): string | null {
  if (typeof body !== 'string' || body.length === 0) return null;
  try {
    const parsed = JSON.parse(body) as { email?: unknown };
    return typeof parsed.email === 'string' && parsed.email.trim() ? parsed.email.trim().toLowerCase() : null;
  } catch {
    return null;
  }
}
