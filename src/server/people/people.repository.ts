import { sql, type Kysely, type Transaction } from 'kysely';
import type { Role } from '../../shared/role-schema.js';
import type { Database } from '../db/schema.js';

type Db = Kysely<Database> | Transaction<Database>;

/** One page of accounts, newest first; `search` matches the e-mail or the name, in any case. */
export async function selectPeople(db: Db, options: { search?: string; offset: number; limit: number }) {
  let query = db
    .selectFrom('user')
    .select((eb) => [
      'user.id',
      'user.email',
      'user.name',
      'user.role',
      'user.createdAt',
      'user.suspended_at',
      eb.selectFrom('blogs').select((sub) => sub.fn.countAll<string>().as('n')).whereRef('blogs.user_id', '=', 'user.id').as('blog_count'),
      eb.selectFrom('session').select((sub) => sub.fn.max('session.last_seen_at').as('m')).whereRef('session.userId', '=', 'user.id').as('last_seen_at'),
    ])
    .orderBy('user.createdAt', 'desc')
    .orderBy('user.id')
    .offset(options.offset)
    .limit(options.limit);
  if (options.search) {
    const pattern = `%${options.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    query = query.where((eb) => eb.or([eb('user.email', 'ilike', pattern), eb('user.name', 'ilike', pattern)]));
  }
  return query.execute();
}

export async function findPerson(db: Db, id: string) {
  return db.selectFrom('user').select(['id', 'email', 'role', 'suspended_at']).where('id', '=', id).executeTakeFirst();
}

export async function lockPerson(trx: Transaction<Database>, id: string) {
  return trx.selectFrom('user').select(['id', 'email', 'role', 'suspended_at']).where('id', '=', id).forUpdate().executeTakeFirst();
}

export async function findPersonByEmail(db: Db, email: string) {
  return db.selectFrom('user').select(['id', 'email', 'role', 'suspended_at']).where(sql<string>`lower(email)`, '=', email.toLowerCase()).executeTakeFirst();
}

export async function setRole(trx: Transaction<Database>, id: string, role: Role): Promise<void> {
  await trx.updateTable('user').set({ role }).where('id', '=', id).execute();
}

/**
 * Gives every blog of one account (and the images its texts show) to another, keeping each blog's
 * copy of its author's suspension right (`core/blog-visibility.ts` reads it).
 */
export async function moveBlogs(trx: Transaction<Database>, fromId: string, to: { id: string; suspended_at: Date | null }): Promise<void> {
  await trx.updateTable('blogs').set({ user_id: to.id, author_suspended_at: to.suspended_at }).where('user_id', '=', fromId).execute();
  await trx.updateTable('inline_images').set({ user_id: to.id }).where('user_id', '=', fromId).where('blog_id', 'is not', null).execute();
}

export async function selectPendingInvitations(db: Db, now = new Date()) {
  return db
    .selectFrom('invitations')
    .select(['id', 'email', 'role', 'created_at', 'expires_at'])
    .where('accepted_at', 'is', null)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .orderBy('created_at', 'desc')
    .execute();
}
