import type { Kysely } from 'kysely';
import type { VoteDirection, VoteResult } from '../../shared/blog-schema.js';
import { messages } from '../../shared/messages.js';
import type { Database } from '../db/schema.js';
import { conflict, notFound, unauthorized } from '../errors.js';
import { applyVote } from './votes.repository.js';

export interface VoteCommand {
  blogId: string;
  userId: string;
  direction: VoteDirection;
}

/**
 * One statement: the blog's row lock, the vote and its counts (`applyVote`), so the answer is
 * exact whatever else is voting at the same time, in one round trip.
 */
export async function castVote(db: Kysely<Database>, command: VoteCommand): Promise<VoteResult> {
  let applied;
  try {
    applied = await applyVote(db, command);
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

/** The blog (or the voter's account) was deleted before or while voting. */
function foreignKeyError(err: unknown) {
  const pgError = err as { code?: string; constraint?: string };
  if (pgError?.code !== '23503') return undefined;
  return pgError.constraint === 'votes_user_id_fkey' ? unauthorized() : notFound(messages.blogDoesNotExist);
}
