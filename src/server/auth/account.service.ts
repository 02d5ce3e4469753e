import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { FRESH_SESSION_MINUTES, type Account, type DeleteAccountInput } from '../../shared/account-schema.js';
import { messages } from '../../shared/messages.js';
import { isHandleFromEmail, profileTexts, type OwnProfile, type ProfileInput } from '../../shared/profile-schema.js';
import { brokenConstraint } from '../db/database-errors.js';
import type { Database } from '../db/schema.js';
import { AppError, badRequest, conflict, notFound } from '../errors.js';
import { removeStoredImage } from '../images/stored-image.js';
import type { ImageStorage } from '../storage/storage.js';
import { deleteUserAndContent } from '../core/account-deletion.repository.js';
import { findPasswordHash, findProfile, updateProfile } from './account.repository.js';
import { verifyPassword } from './password-hashing.js';
import type { SessionUser } from '../core/session-user.js';
import type { SessionInfo } from './session.js';

export interface AccountDeps {
  db: Kysely<Database>;
  storage: ImageStorage;
  log: FastifyBaseLogger;
}

export async function getAccount(deps: Pick<AccountDeps, 'db'>, user: SessionUser): Promise<Account> {
  return { email: user.email, hasPassword: (await findPasswordHash(deps.db, user.id)) !== null };
}

/** The index that keeps handles unique (migration 2026-11-26-01). */
const HANDLE_INDEX = 'user_handle_key';

type ProfileRow = { email: string; handle: string; display_name: string | null; bio: string | null };

const toOwnProfile = (row: ProfileRow): OwnProfile => ({
  handle: row.handle,
  displayName: row.display_name,
  bio: row.bio,
  handleFromEmail: isHandleFromEmail(row.handle, row.email),
});

const noSuchAccount = () => notFound('This account does not exist any more.');

export async function getProfile(deps: Pick<AccountDeps, 'db'>, user: SessionUser): Promise<OwnProfile> {
  const row = await findProfile(deps.db, user.id);
  if (!row) throw noSuchAccount();
  return toOwnProfile(row);
}

/** Saves the whole profile; a handle someone else has is a 409. */
export async function saveProfile(deps: Pick<AccountDeps, 'db'>, user: SessionUser, input: ProfileInput): Promise<OwnProfile> {
  let row: ProfileRow | undefined;
  try {
    row = await updateProfile(deps.db, user.id, input);
  } catch (err) {
    if (brokenConstraint(err, 'unique') === HANDLE_INDEX) throw conflict(profileTexts.handleTaken, 'HANDLE_TAKEN');
    throw err;
  }
  if (!row) throw noSuchAccount();
  return toOwnProfile(row);
}

/**
 * Deletes the account with everything in it, in one transaction; the image files follow once it
 * has committed (a file left behind by a failed delete is only logged: the data is gone either way).
 * Proof it is the owner: the password, or, for an account without one, a session from the last minutes.
 */
export async function deleteAccount(deps: AccountDeps, current: SessionInfo, input: DeleteAccountInput): Promise<void> {
  await assertOwnerIsPresent(deps, current, input);
  const { deleted, imageKeys } = await deps.db.transaction().execute(async (trx) => {
    // The seat is never empty (issue 56): read under the row's lock, so a hand-over at the same moment is seen.
    const account = await trx.selectFrom('user').select('role').where('id', '=', current.user.id).forUpdate().executeTakeFirst();
    if (account?.role === 'owner') throw new AppError(403, 'OWNER_HANDS_OVER_FIRST', messages.ownerHandsOverFirst);
    return deleteUserAndContent(trx, current.user.id);
  });
  if (!deleted) throw noSuchAccount();
  for (const key of imageKeys) {
    try {
      await removeStoredImage(deps.storage, key);
    } catch (err) {
      deps.log.error({ err, key }, 'account deleted, but an image could not be removed from storage');
    }
  }
}

async function assertOwnerIsPresent(deps: AccountDeps, current: SessionInfo, input: DeleteAccountInput): Promise<void> {
  const hash = await findPasswordHash(deps.db, current.user.id);
  if (hash !== null) {
    if (!input.password) throw badRequest('Enter your password to delete your account.', 'PASSWORD_REQUIRED');
    if (!(await verifyPassword({ hash, password: input.password }))) throw badRequest('Invalid password', 'INVALID_PASSWORD');
    return;
  }
  const ageMs = Date.now() - current.session.createdAt.getTime();
  if (ageMs > FRESH_SESSION_MINUTES * 60_000) {
    throw new AppError(
      403,
      'SESSION_NOT_FRESH',
      `For your safety, sign in again with a magic link or a code, then delete your account within ${FRESH_SESSION_MINUTES} minutes.`,
    );
  }
}
