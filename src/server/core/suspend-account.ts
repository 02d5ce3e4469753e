import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { SessionUser } from './session-user.js';

/**
 * Suspending or restoring an account from /admin (people): moderation's own action (its events, its
 * log), with the caller's audit entry in its transaction. `app.ts` composes it from moderation's
 * `performAction`; declared here so neither feature imports the other.
 */
export type SuspendAccount = (
  moderator: SessionUser,
  input: { userId: string; suspend: boolean; reason?: string },
  inTransaction: (trx: Kysely<Database>) => Promise<void>,
) => Promise<unknown>;
