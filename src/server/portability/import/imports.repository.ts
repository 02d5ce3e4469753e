import { randomBytes } from 'node:crypto';
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { ImportedPerson } from './imported-post.js';

type Db = Kysely<Database> | Transaction<Database>;

export async function findImportedPost(db: Db, source: string, sourceId: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('imported_items')
    .select('blog_id')
    .where('source', '=', source)
    .where('kind', '=', 'post')
    .where('source_id', '=', sourceId)
    .executeTakeFirst();
  return row?.blog_id ?? undefined;
}

/** The comments of one source already imported: source id → our comment id and its parent. */
export async function findImportedComments(db: Db, source: string, sourceIds: readonly string[]) {
  if (sourceIds.length === 0) return new Map<string, { id: string; parentId: string | null }>();
  const rows = await db
    .selectFrom('imported_items')
    .innerJoin('comments', 'comments.id', 'imported_items.comment_id')
    .select(['imported_items.source_id', 'comments.id', 'comments.parent_id'])
    .where('imported_items.source', '=', source)
    .where('imported_items.kind', '=', 'comment')
    .where('imported_items.source_id', 'in', sourceIds)
    .execute();
  return new Map(rows.map((row) => [row.source_id, { id: row.id, parentId: row.parent_id }]));
}

export async function recordImported(db: Db, row: { source: string; kind: 'post' | 'comment'; sourceId: string; blogId?: string; commentId?: string }): Promise<void> {
  await db
    .insertInto('imported_items')
    .values({ source: row.source, kind: row.kind, source_id: row.sourceId, blog_id: row.blogId ?? null, comment_id: row.commentId ?? null })
    .execute();
}

export async function findAccountIds(db: Db, emails: readonly string[]): Promise<Map<string, string>> {
  if (emails.length === 0) return new Map();
  const rows = await db.selectFrom('user').select(['id', 'email']).where(sql<string>`lower(email)`, 'in', emails).execute();
  return new Map(rows.map((row) => [row.email.toLowerCase(), row.id]));
}

/**
 * An account for an author of the export, with no password and no sign-in method yet: Better
 * Auth's magic link and password reset find users by e-mail, so the author signs in by either.
 * The e-mail is not marked verified: the first magic link does that.
 */
export async function insertPasswordlessAccount(db: Db, person: ImportedPerson): Promise<string> {
  const id = randomBytes(16).toString('base64url');
  const now = new Date();
  await db
    .insertInto('user')
    .values({ id, name: person.name, email: person.email, emailVerified: false, image: null, createdAt: now, updatedAt: now })
    .onConflict((oc) => oc.column('email').doNothing())
    .execute();
  const row = await db.selectFrom('user').select('id').where(sql<string>`lower(email)`, '=', person.email).executeTakeFirstOrThrow();
  return row.id;
}

/** An imported blog keeps the export's dates: when it was published (or written), when it was last changed. */
export async function setImportedBlogDates(db: Db, blogId: string, dates: { createdAt: Date | null; updatedAt: Date | null }): Promise<void> {
  if (!dates.createdAt && !dates.updatedAt) return;
  const createdAt = dates.createdAt ?? undefined;
  const updatedAt = dates.updatedAt && (!dates.createdAt || dates.updatedAt >= dates.createdAt) ? dates.updatedAt : dates.createdAt ?? undefined;
  await db
    .updateTable('blogs')
    .set({ ...(createdAt ? { created_at: createdAt } : {}), ...(updatedAt ? { updated_at: updatedAt } : {}) })
    .where('id', '=', blogId)
    .execute();
}

export async function insertImportedInlineImage(db: Db, row: { key: string; userId: string; blogId: string; width: number; height: number }): Promise<void> {
  await db.insertInto('inline_images').values({ key: row.key, user_id: row.userId, blog_id: row.blogId, width: row.width, height: row.height }).execute();
}

export async function insertImportedComment(
  db: Db,
  row: { blogId: string; userId: string; parentId: string | null; body: string; html: string; createdAt: Date },
): Promise<string> {
  const inserted = await db
    .insertInto('comments')
    .values({ blog_id: row.blogId, user_id: row.userId, parent_id: row.parentId, body: row.body, html: row.html, created_at: row.createdAt, updated_at: row.createdAt })
    .returning('id')
    .executeTakeFirstOrThrow();
  return inserted.id;
}
