import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

/** What the lifecycle compares before and after a write: visibility, and the author for the event. */
export interface BlogState {
  id: string;
  user_id: string;
  handle: string;
  status: string;
  hidden_at: Date | null;
  author_suspended_at: Date | null;
}

function blogStates(db: Kysely<Database>) {
  return db
    .selectFrom('blogs')
    .innerJoin('user', 'user.id', 'blogs.user_id')
    .select(['blogs.id', 'blogs.user_id', 'user.handle', 'blogs.status', 'blogs.hidden_at', 'blogs.author_suspended_at']);
}

/** Some blogs' states; locked by default (read before a write, so no other writer slips between). */
export async function selectBlogStates(db: Kysely<Database>, ids: readonly string[], options: { lock?: boolean } = {}): Promise<BlogState[]> {
  if (ids.length === 0) return [];
  const query = blogStates(db).where('blogs.id', 'in', [...ids]);
  return (options.lock ?? true) ? query.forUpdate('blogs').execute() : query.execute();
}

/** Every blog of an author, locked: a suspension, its end or the account's deletion changes them all. */
export async function selectAuthorBlogStates(db: Kysely<Database>, authorId: string): Promise<BlogState[]> {
  return blogStates(db).where('blogs.user_id', '=', authorId).forUpdate('blogs').execute();
}
