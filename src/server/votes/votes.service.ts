import type { Kysely } from 'kysely';
import type { VoteDirection, VoteResult } from '../../shared/blog-schema.js';
import { messages } from '../../shared/messages.js';
import type { Database } from '../db/schema.js';
import { conflict, notFound, unauthorized } from '../errors.js';
import { lockBlogForVote, selectVoteCounts, upsertVote } from './votes.repository.js';

export interface VoteCommand {
  blogId: string;
  userId: string;
  direction: VoteDirection;
}

/**
 * One transaction: the vote, the counts (moved by the trigger under the blog's row lock) and
 * the read of the new counts, so the answer is exact whatever else is voting at the same time.
 */
export async function castVote(db: Kysely<Database>, command: VoteCommand): Promise<VoteResult> {
  return db.transaction().execute(async (trx) => {
    if (!(await lockBlogForVote(trx, command.blogId, command.userId))) throw notFound(messages.blogDoesNotExist);
    let changed: boolean;
    try {
      changed = await upsertVote(trx, command);
    } catch (err) {
      throw foreignKeyError(err) ?? err;
    }
    if (!changed) {
      throw conflict(command.direction === 'up' ? messages.alreadyUpvoted : messages.alreadyDownvoted, 'ALREADY_VOTED');
    }
    const counts = await selectVoteCounts(trx, command.blogId);
    if (!counts) throw notFound(messages.blogDoesNotExist);
    return { blogId: command.blogId, ...counts, myVote: command.direction };
  });
}

/** The blog (or the voter's account) was deleted before or while voting. */
function foreignKeyError(err: unknown) {
  const pgError = err as { code?: string; constraint?: string };
  if (pgError?.code !== '23503') return undefined;
  return pgError.constraint === 'votes_user_id_fkey' ? unauthorized() : notFound(messages.blogDoesNotExist);
}
