import type { FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import { assertFromOwnSite } from '../http/same-origin.js';
import type { RateLimiter, RateLimitRule } from '../rate-limit/rate-limit.js';
import type { SessionUser } from '../core/session-user.js';

const FIFTEEN_MINUTES = 15 * 60;

interface AddressLimit {
  /** Better Auth paths (below /api/auth) this limit counts together. */
  paths: string[];
  rule: RateLimitRule;
  /** What the person is told once the address is over the limit. */
  message: string;
}

/** At most `max` requests from one address in 15 minutes, counted together over `paths`. */
function perFifteenMinutes(max: number, paths: string[], message: string): AddressLimit {
  return { paths, rule: { max, windowSeconds: FIFTEEN_MINUTES }, message };
}

/**
 * Limits per e-mail address, on top of Better Auth's limits per client address: a spread of
 * addresses cannot guess one account's password, flood one mailbox or burn one code's tries.
 */
export const AUTH_ADDRESS_LIMITS: Record<string, AddressLimit> = {
  'sign-in': perFifteenMinutes(10, ['/sign-in/email'], 'Too many sign-in attempts for this e-mail address. Please wait 15 minutes, or reset your password.'),
  'sign-up': perFifteenMinutes(5, ['/sign-up/email'], 'Too many sign-up attempts for this e-mail address. Please wait 15 minutes and try again.'),
  'password-reset': perFifteenMinutes(3, ['/request-password-reset', '/email-otp/request-password-reset', '/forget-password/email-otp'], 'Several reset e-mails went to this address already. Please check your inbox, or wait 15 minutes.'),
  'magic-link': perFifteenMinutes(3, ['/sign-in/magic-link'], 'Several sign-in links went to this address already. Please check your inbox, or wait 15 minutes.'),
  'otp-send': perFifteenMinutes(3, ['/email-otp/send-verification-otp'], 'Several codes went to this address already. Please check your inbox, or wait 15 minutes.'),
  'otp-verify': perFifteenMinutes(10, ['/sign-in/email-otp', '/email-otp/verify-email', '/email-otp/check-verification-otp', '/email-otp/reset-password'], 'Too many codes were tried for this e-mail address. Please wait 15 minutes and ask for a new code.'),
};

const LIMIT_BY_PATH = new Map<string, AddressLimit & { name: string }>(
  Object.entries(AUTH_ADDRESS_LIMITS).flatMap(([name, limit]) => limit.paths.map((path) => [path, { name, ...limit }] as const)),
);

/**
 * Codes a signed-in account sends (confirming its authenticator app, turning it off) are limited
 * per account; a sign-in's second step is locked by Better Auth after 5 wrong codes for 15 minutes
 * (`SECOND_FACTOR_LOCKOUT`), per account as well.
 */
export const SECOND_FACTOR_CODE_LIMIT = perFifteenMinutes(
  5,
  ['/two-factor/verify-totp', '/two-factor/verify-backup-code', '/two-factor/disable'],
  'Too many codes were tried for this account. Please wait 15 minutes and try again.',
);
const SECOND_FACTOR_CODE_PATHS = new Set(SECOND_FACTOR_CODE_LIMIT.paths);

/** GETs that start a session: only our own /auth page may send them (no login CSRF). */
const SIGN_IN_GETS = new Set(['/magic-link/verify', '/verify-email']);

/** Better Auth's request as it will see it: the path below /api/auth and the parsed body. */
export interface AuthRequest {
  method: string;
  /** Below `/api/auth`, dot segments resolved exactly as the URL Better Auth receives. */
  path: string;
  body: Record<string, unknown> | undefined;
}

export interface AuthGuardDeps {
  limiter: RateLimiter;
  config: Config;
  sessions: { optionalUser(request: FastifyRequest): Promise<SessionUser | null> };
}

/**
 * Our own checks on auth requests, run on the very path and body Better Auth is handed
 * (see `auth.routes.ts`), so no way of writing a request reaches Better Auth unchecked.
 */
export function createAuthGuards({ limiter, config, sessions }: AuthGuardDeps) {
  const ownOrigin = new URL(config.publicUrl).origin;
  return async (request: FastifyRequest, auth: AuthRequest): Promise<void> => {
    if (auth.method === 'GET') {
      // A link opened from another site must not sign the browser into the link's account.
      if (SIGN_IN_GETS.has(auth.path)) assertFromOwnSite(request, ownOrigin);
      return;
    }
    // A provider that answers by form post (Apple) posts from its own origin; Better Auth checks its state.
    if (auth.path.startsWith('/callback/')) return;
    assertFromOwnSite(request, ownOrigin);
    const path = auth.path.replace(/\/+$/, '');
    if (SECOND_FACTOR_CODE_PATHS.has(path)) {
      const user = await sessions.optionalUser(request);
      if (user) await limiter.enforce(`auth-account:second-factor:${user.id}`, SECOND_FACTOR_CODE_LIMIT.rule, SECOND_FACTOR_CODE_LIMIT.message);
    }
    const limit = LIMIT_BY_PATH.get(path);
    if (!limit) return;
    const email = emailOf(auth.body);
    if (!email) return;
    await limiter.enforce(`auth-address:${limit.name}:${email}`, limit.rule, limit.message);
  };
}

/** The address a Better Auth request is about, normalised as Better Auth stores it. */
function emailOf(body: Record<string, unknown> | undefined): string | null {
  const email = body?.email;
  return typeof email === 'string' && email.trim() ? email.trim().toLowerCase() : null;
}
