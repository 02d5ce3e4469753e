import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { enqueueJob } from '../queue/job-queue.js';

/**
 * The federation hook: a job queued in the transaction that changes what the fediverse may see
 * of a blog (it became public, a public blog was edited, it stopped being public or is gone).
 * `federation/` handles it: Create, Update or Delete of the Article to the author's followers.
 * The author's id and handle ride along, so a Delete can be built after the row is gone.
 * Queued only when federation is on (`FEDERATION`); each change is its own job.
 */
export const BLOG_FEDERATE_JOB = 'blog-federate';

export type BlogFederateAction = 'create' | 'update' | 'delete';

export interface BlogFederatePayload {
  blogId: string;
  action: BlogFederateAction;
  userId: string;
  handle: string;
}

export async function queueBlogFederation(
  trx: Kysely<Database>,
  federate: boolean | undefined,
  change: { blogId: string; action: BlogFederateAction },
): Promise<void> {
  if (!federate) return;
  const author = await trx
    .selectFrom('blogs')
    .innerJoin('user', 'user.id', 'blogs.user_id')
    .select(['user.id', 'user.handle'])
    .where('blogs.id', '=', change.blogId)
    .executeTakeFirst();
  if (!author) return;
  const payload: BlogFederatePayload = { ...change, userId: author.id, handle: author.handle };
  await enqueueJob(trx, { kind: BLOG_FEDERATE_JOB, key: `${BLOG_FEDERATE_JOB}:${change.action}:${change.blogId}:${randomUUID()}`, payload: { ...payload } });
}

/** What a change of visibility means to followers: appearing is a Create, disappearing a Delete. */
export function federateActionFor(wasPublic: boolean, isPublic: boolean): BlogFederateAction | null {
  if (wasPublic && isPublic) return 'update';
  if (isPublic) return 'create';
  if (wasPublic) return 'delete';
  return null;
}
