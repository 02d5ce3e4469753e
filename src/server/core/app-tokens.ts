import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { Role } from '../../shared/role-schema.js';
import { tooManyRequests } from '../errors.js';
import type { RateLimiter } from '../rate-limit/rate-limit.js';

/**
 * The access tokens apps hold for an author (IndieAuth, issue 60), shared by the feature that
 * grants them (`indieauth/`) and those that accept them. A token is `ia_<selector>_<secret>`: the
 * selector finds its row, the secret is kept only as its SHA-256 and compared in constant time,
 * so neither a database dump nor the time an answer takes gives a token away.
 */
const PREFIX = 'ia';
const TOKEN = /^ia_([0-9a-f]{24})_([A-Za-z0-9_-]{43})$/;

export const sha256 = (value: string): string => createHash('sha256').update(value).digest('hex');

/** Whether two hex digests are equal, in time that does not depend on where they differ. */
export function sameDigest(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && left.length > 0 && timingSafeEqual(left, right);
}

export interface NewAppToken {
  token: string;
  selector: string;
  secretHash: string;
}

export function newAppToken(): NewAppToken {
  const selector = randomBytes(12).toString('hex');
  const secret = randomBytes(32).toString('base64url');
  return { token: `${PREFIX}_${selector}_${secret}`, selector, secretHash: sha256(secret) };
}

/** What a valid token is: whose, for which app, with which scopes. */
export interface AppTokenGrant {
  tokenId: string;
  userId: string;
  email: string;
  role: Role;
  clientId: string;
  clientName: string;
  me: string;
  scopes: string[];
  issuedAt: Date;
}

/** The token's grant, or null for a malformed, unknown or revoked token, or a suspended account. */
export async function findAppToken(db: Kysely<Database>, token: string): Promise<AppTokenGrant | null> {
  const parts = TOKEN.exec(token);
  if (!parts) return null;
  const row = await db
    .selectFrom('indieauth_tokens')
    .innerJoin('user', 'user.id', 'indieauth_tokens.user_id')
    .select(['indieauth_tokens.id', 'secret_hash', 'user_id', 'client_id', 'client_name', 'scope', 'me', 'indieauth_tokens.created_at', 'user.email', 'user.role', 'user.suspended_at'])
    .where('selector', '=', parts[1]!)
    .executeTakeFirst();
  if (!row || !sameDigest(sha256(parts[2]!), row.secret_hash) || row.suspended_at) return null;
  return {
    tokenId: row.id,
    userId: row.user_id,
    email: row.email,
    role: row.role,
    clientId: row.client_id,
    clientName: row.client_name,
    me: row.me,
    scopes: row.scope.split(' ').filter(Boolean),
    issuedAt: row.created_at,
  };
}

/** Notes a token's use (Settings' 'Apps' shows it), at most once a minute per token. */
export async function touchAppToken(db: Kysely<Database>, tokenId: string, now = new Date()): Promise<void> {
  await db
    .updateTable('indieauth_tokens')
    .set({ last_used_at: now })
    .where('id', '=', tokenId)
    .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', new Date(now.getTime() - 60_000))]))
    .execute();
}

/** Wrong codes and tokens, counted per client address like sign-in's attempts: ten in 15 minutes. */
export const WRONG_TOKEN_LIMIT = { max: 10, windowSeconds: 15 * 60 };
const WRONG_TOKEN_MESSAGE = 'Too many wrong tokens or codes from this address. Please wait 15 minutes and try again.';

/**
 * Counts wrong tokens per address in the shared counters; an address over the limit is refused
 * before its next token is even looked at (so a right guess is no different from a wrong one).
 */
export function wrongTokenLimit(limiter: Pick<RateLimiter, 'enforce'>) {
  const blockedUntil = new Map<string, number>();
  return {
    assertNotBlocked(address: string) {
      const until = blockedUntil.get(address);
      if (until === undefined) return;
      if (until > Date.now()) throw tooManyRequests(WRONG_TOKEN_MESSAGE, Math.ceil((until - Date.now()) / 1000));
      blockedUntil.delete(address);
    },
    async wrong(address: string) {
      try {
        await limiter.enforce(`indieauth-wrong:${address}`, WRONG_TOKEN_LIMIT, WRONG_TOKEN_MESSAGE);
      } catch (refusal) {
        if (blockedUntil.size > 10_000) blockedUntil.clear();
        blockedUntil.set(address, Date.now() + WRONG_TOKEN_LIMIT.windowSeconds * 1000);
        throw refusal;
      }
    },
  };
}
export type WrongTokens = ReturnType<typeof wrongTokenLimit>;

/** The request's Bearer token: the `Authorization` header, or an `access_token` field of a form body. */
export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (header) return /^Bearer\s+(\S+)$/i.exec(header)?.[1] ?? '';
  const body = request.body as Record<string, unknown> | undefined;
  return typeof body?.access_token === 'string' ? body.access_token : undefined;
}

/** A token's grant, counting a wrong one against the address. */
export async function grantOf(deps: { db: Kysely<Database>; wrongTokens: WrongTokens }, request: FastifyRequest, token: string): Promise<AppTokenGrant | null> {
  deps.wrongTokens.assertNotBlocked(request.ip);
  const grant = await findAppToken(deps.db, token);
  if (!grant) await deps.wrongTokens.wrong(request.ip);
  return grant;
}

/** One gate per limiter (per app), shared by every feature that accepts tokens. */
const gates = new WeakMap<object, WrongTokens>();
export function wrongTokensOf(limiter: Pick<RateLimiter, 'enforce'>): WrongTokens {
  let gate = gates.get(limiter);
  if (!gate) gates.set(limiter, (gate = wrongTokenLimit(limiter)));
  return gate;
}
