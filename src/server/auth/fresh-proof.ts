import { randomUUID } from 'node:crypto';
import { APIError, getSessionFromCtx, type createAuthMiddleware } from 'better-auth/api';
import { sql, type Kysely } from 'kysely';
import { FRESH_PROOF_MINUTES, FRESH_PROOF_REQUIRED, type FreshProofInput } from '../../shared/account-schema.js';
import type { Database } from '../db/schema.js';
import { AppError, badRequest } from '../errors.js';
import { findPasswordHash } from './account.repository.js';
import { verifyPassword } from './password-hashing.js';
import type { SessionInfo } from './session.js';

/**
 * A stolen session cookie must not become a way in of its own (issue 56): whatever adds one (a
 * passkey, an authenticator app and its backup codes, a linked provider, another e-mail address)
 * or shows one (the app's key) asks for a proof given in the last `FRESH_PROOF_MINUTES`: signing
 * in (the session's own age), or the password or an authenticator code sent to
 * `POST /api/account/fresh-proof`, which marks this session proven. The e-mail address cannot be
 * changed on this site at all; its paths are here in case it ever can.
 */
const FRESH_PROOF_PATHS = new Set([
  '/passkey/generate-register-options',
  '/passkey/verify-registration',
  '/two-factor/enable',
  '/two-factor/generate-backup-codes',
  '/two-factor/get-totp-uri',
  '/link-social',
  '/unlink-account',
  '/change-email',
  '/email-otp/request-email-change',
  '/email-otp/change-email',
]);

/** Better Auth asks these for the password of an account that has one: a proof given now, checked here first. */
const PASSWORD_PATHS = new Set(['/two-factor/enable', '/two-factor/generate-backup-codes', '/two-factor/get-totp-uri']);

const FRESH_PROOF_MS = FRESH_PROOF_MINUTES * 60_000;
/** The mark lives in Better Auth's `verification` table, keyed by the session (never its token). */
const markIdentifier = (sessionId: string) => `fresh-proof-${sessionId}`;

export const freshProofTexts = {
  required: `For your safety, confirm it is you first: enter your password or a code from your authenticator app (or sign in again), then try again within ${FRESH_PROOF_MINUTES} minutes.`,
  invalidPassword: 'Invalid password',
  noPassword: 'Your account has no password: enter a code from your authenticator app, or sign in again.',
  noAuthenticator: 'Your account has no authenticator app: enter your password, or sign in again.',
} as const;

interface ProvenSession {
  id: string;
  userId: string;
  createdAt: Date;
}

/** Marks the session proven for the next `FRESH_PROOF_MINUTES` (and drops the account's stale marks). */
export async function markFreshProof(db: Kysely<Database>, session: Pick<ProvenSession, 'id' | 'userId'>): Promise<void> {
  const now = new Date();
  await db.transaction().execute(async (trx) => {
    await trx
      .deleteFrom('verification')
      .where((eb) => eb.or([eb('identifier', '=', markIdentifier(session.id)), eb.and([eb('value', '=', session.userId), eb('identifier', 'like', 'fresh-proof-%'), eb('expiresAt', '<', now)])]))
      .execute();
    await trx
      .insertInto('verification')
      .values({ id: randomUUID(), identifier: markIdentifier(session.id), value: session.userId, expiresAt: new Date(now.getTime() + FRESH_PROOF_MS), createdAt: now, updatedAt: now })
      .execute();
  });
}

/** Signed in within the last minutes, or proven since. */
export async function isFreshlyProven(db: Kysely<Database>, session: ProvenSession): Promise<boolean> {
  if (Date.now() - new Date(session.createdAt).getTime() < FRESH_PROOF_MS) return true;
  const mark = await db
    .selectFrom('verification')
    .select('id')
    .where('identifier', '=', markIdentifier(session.id))
    .where('value', '=', session.userId)
    .where('expiresAt', '>', sql<Date>`now()`)
    .executeTakeFirst();
  return mark !== undefined;
}

/** The password the request carries, if any, checked against the account's: true when it matches, refused when not. */
export async function checkPasswordOf(db: Kysely<Database>, userId: string, password: unknown, required: boolean): Promise<boolean> {
  const hash = await findPasswordHash(db, userId);
  if (hash === null) return false;
  if (typeof password !== 'string' || !password) {
    if (required) throw APIError.from('BAD_REQUEST', { code: 'INVALID_PASSWORD', message: freshProofTexts.invalidPassword });
    return false;
  }
  if (!(await verifyPassword({ hash, password }))) throw APIError.from('BAD_REQUEST', { code: 'INVALID_PASSWORD', message: freshProofTexts.invalidPassword });
  return true;
}

type HookContext = Parameters<Parameters<typeof createAuthMiddleware>[0]>[0];

/**
 * Better Auth's before hook for the paths above: a password in the body counts as a proof given
 * now (a wrong or missing one, where Better Auth wants it, is refused here before anything else
 * happens); otherwise the session must be freshly proven. Without a session, the endpoint answers
 * 401 itself.
 */
export async function requireFreshProof(db: Kysely<Database>, ctx: HookContext): Promise<void> {
  if (!FRESH_PROOF_PATHS.has(ctx.path)) return;
  const current = await getSessionFromCtx(ctx);
  if (!current) return;
  const password = (ctx.body as { password?: unknown } | undefined)?.password;
  if (await checkPasswordOf(db, current.user.id, password, PASSWORD_PATHS.has(ctx.path))) return;
  if (await isFreshlyProven(db, current.session)) return;
  throw APIError.from('FORBIDDEN', { code: FRESH_PROOF_REQUIRED, message: freshProofTexts.required });
}

export interface FreshProofDeps {
  db: Kysely<Database>;
  /** Better Auth's `verifyTOTP` for this session's account: false for a wrong code. */
  verifyTotp: (code: string) => Promise<boolean>;
}

async function authenticatorIsOn(db: Kysely<Database>, userId: string): Promise<boolean> {
  const row = await db.selectFrom('user').select('twoFactorEnabled').where('id', '=', userId).executeTakeFirst();
  return Boolean(row?.twoFactorEnabled);
}

/** `POST /api/account/fresh-proof`: the password or an authenticator code; the session is then proven. */
export async function proveFresh(deps: FreshProofDeps, current: SessionInfo, input: FreshProofInput): Promise<void> {
  const userId = current.user.id;
  if (input.password !== undefined) {
    if ((await findPasswordHash(deps.db, userId)) === null) throw badRequest(freshProofTexts.noPassword, 'NO_PASSWORD');
    await checkPasswordOf(deps.db, userId, input.password, true).catch((err: unknown) => {
      throw err instanceof APIError ? badRequest(freshProofTexts.invalidPassword, 'INVALID_PASSWORD') : err;
    });
  } else {
    // Only a confirmed app: a code for one being set up would turn it on (Better Auth's verify-totp does).
    if (!(await authenticatorIsOn(deps.db, userId))) throw badRequest(freshProofTexts.noAuthenticator, 'NO_SECOND_FACTOR');
    if (!(await deps.verifyTotp(input.code!))) throw new AppError(401, 'INVALID_CODE', 'That code is not right. Check your authenticator app and try again.');
  }
  await markFreshProof(deps.db, { id: current.session.id, userId });
}
