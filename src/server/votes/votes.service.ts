import type { Kysely } from 'kysely';
import type { VoteDirection, VoteResult } from '../../shared/blog-schema.js';
import { messages } from '../../shared/messages.js';
import type { WriteNotice } from '../cache/cache-invalidation.js';
import type { Database } from '../db/schema.js';
import { conflict, notFound, unauthorized } from '../errors.js';
import { applyVote, deleteVote, lockBlogForVote, selectVoteCounts } from './votes.repository.js';
import { brokenConstraint } from '../db/database-errors.js';

export interface VoteCommand {
  blogId: string;
  userId: string;
  direction: VoteDirection;
}

/**
 * One statement: the blog's row lock, the vote and its counts (`applyVote`), so the answer is
 * exact whatever else is voting at the same time, in one round trip; with `notice`, the same
 * statement tells the other app processes' caches, when a vote was written.
 */
export async function castVote(db: Kysely<Database>, command: VoteCommand, notice?: WriteNotice): Promise<VoteResult> {
  let applied;
  try {
    applied = await applyVote(db, command, notice);
  } catch (err) {
    throw foreignKeyError(err) ?? err;
  }
  if (!applied.found) throw notFound(messages.blogDoesNotExist);
  if (!applied.changed) {
    throw conflict(command.direction === 'up' ? messages.alreadyUpvoted : messages.alreadyDownvoted, 'ALREADY_VOTED');
  }
  const { upvotes, downvotes } = applied;
  return { blogId: command.blogId, upvotes, downvotes, rating: upvotes - downvotes, myVote: command.direction };
}

/**
 * Takes the user's vote back, in one transaction with the read of the new counts, like a vote.
 * Without a vote there is nothing to take back: the answer is the same (the blog's counts, no
 * vote), so a repeated click or a second tab does no harm.
 */
export async function removeVote(db: Kysely<Database>, command: Omit<VoteCommand, 'direction'>): Promise<VoteResult> {
  return db.transaction().execute(async (trx) => {
    if (!(await lockBlogForVote(trx, command.blogId, command.userId))) throw notFound(messages.blogDoesNotExist);
    await deleteVote(trx, command);
    const counts = await selectVoteCounts(trx, command.blogId);
    if (!counts) throw notFound(messages.blogDoesNotExist);
    return { blogId: command.blogId, ...counts, myVote: null };
  });
}

/** The blog (or the voter's account) was deleted before or while voting. */
function foreignKeyError(err: unknown) {
  const constraint = brokenConstraint(err, 'foreignKey');
  if (constraint === undefined) return undefined;
  return constraint === 'votes_user_id_fkey' ? unauthorized() : notFound(messages.blogDoesNotExist);
}
