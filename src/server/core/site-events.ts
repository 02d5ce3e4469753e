import type { NewJob } from '../queue/job-queue.js';

/**
 * Events besides a blog's lifecycle (`blog-events.ts`), each a job of the durable queue keyed by
 * its subject: a new comment (queued in the comment's own transaction) and a new account (queued
 * by Better Auth's `user.create.after` hook, just after the account's commit). Webhooks run them
 * (`webhooks/webhook-events.ts`); another listener would be a consumer of the same job.
 */
export const COMMENT_ADDED_JOB = 'comment-added';
export const ACCOUNT_CREATED_JOB = 'account-created';

export const commentAddedJob = (commentId: string): NewJob => ({ kind: COMMENT_ADDED_JOB, key: `${COMMENT_ADDED_JOB}:${commentId}`, payload: { commentId } });
export const accountCreatedJob = (userId: string): NewJob => ({ kind: ACCOUNT_CREATED_JOB, key: `${ACCOUNT_CREATED_JOB}:${userId}`, payload: { userId } });
