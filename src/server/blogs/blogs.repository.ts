import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema.js';
import type { RenderedMarkdown } from '../markdown/render-markdown.js';
import type { StoredImage } from '../images/stored-image.js';
import { selectBlogRows, type BlogRow } from './blog-rows.repository.js';
import { isPubliclyVisible, isVisibleTo } from './blog-visibility.js';

type Db = Kysely<Database> | Transaction<Database>;

const renderedColumns = (rendered: RenderedMarkdown) => ({
  html: rendered.html,
  excerpt: rendered.excerpt,
  reading_minutes: rendered.readingMinutes,
});

/**
 * One page in the home order. The offset runs in a subquery over `blogs_home_order_idx`
 * alone (an index-only scan), so deep pages skip index entries instead of joined rows;
 * only the few ids of the page are joined to their authors and votes.
 */
export async function selectHomePage(
  db: Kysely<Database>,
  viewerId: string | null,
  options: { offset: number; limit: number },
): Promise<BlogRow[]> {
  const pageIds = db
    .selectFrom('blogs')
    .select('blogs.id')
    .where(isPubliclyVisible)
    .orderBy('blogs.rating', 'desc')
    .orderBy('blogs.created_at', 'desc')
    .orderBy('blogs.id', 'desc')
    .offset(options.offset)
    .limit(options.limit);
  return selectBlogRows(db, viewerId)
    .where('blogs.id', 'in', pageIds)
    .orderBy('blogs.rating', 'desc')
    .orderBy('blogs.created_at', 'desc')
    .orderBy('blogs.id', 'desc')
    .execute();
}

export async function findBlogRow(db: Db, viewerId: string | null, id: string): Promise<BlogRow | undefined> {
  return selectBlogRows(db, viewerId).where('blogs.id', '=', id).where(isVisibleTo(viewerId)).executeTakeFirst();
}

export async function insertBlog(
  db: Db,
  row: { userId: string; title: string; body: string; rendered: RenderedMarkdown; image: StoredImage | null },
): Promise<string> {
  const inserted = await db
    .insertInto('blogs')
    .values({ user_id: row.userId, title: row.title, body: row.body, ...renderedColumns(row.rendered), ...imageColumns(row.image) })
    .returning('id')
    .executeTakeFirstOrThrow();
  return inserted.id;
}

/** The owner and image of a blog, locked until the transaction ends; undefined if there is none. */
export async function lockBlogOwnership(trx: Transaction<Database>, id: string) {
  return trx.selectFrom('blogs').select(['user_id', 'image_key']).where('id', '=', id).forUpdate().executeTakeFirst();
}

/** Also filtered by owner, so a write can never touch another user's blog. Returns whether a row changed. */
export async function updateOwnBlog(
  db: Db,
  id: string,
  userId: string,
  changes: { title: string; body: string; rendered: RenderedMarkdown; image?: StoredImage },
): Promise<boolean> {
  const result = await db
    .updateTable('blogs')
    .set({
      title: changes.title,
      body: changes.body,
      ...renderedColumns(changes.rendered),
      ...(changes.image !== undefined ? imageColumns(changes.image) : {}),
      updated_at: new Date(),
    })
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function deleteOwnBlog(db: Db, id: string, userId: string): Promise<boolean> {
  const result = await db.deleteFrom('blogs').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/** Who owns a blog, without locking it (the write re-checks under a lock). */
export async function findBlogOwner(db: Db, id: string): Promise<string | undefined> {
  const row = await db.selectFrom('blogs').select('user_id').where('id', '=', id).executeTakeFirst();
  return row?.user_id;
}

/**
 * Up to `limit` blogs written before Markdown was rendered on write, locked for this transaction.
 * Rows another process is already rendering are skipped, so several processes starting at once
 * share the work instead of repeating it.
 */
export async function lockUnrenderedBlogs(trx: Transaction<Database>, limit: number) {
  return trx
    .selectFrom('blogs')
    .select(['id', 'body'])
    .where('html', 'is', null)
    .orderBy('id')
    .limit(limit)
    .forUpdate()
    .skipLocked()
    .execute();
}

export async function saveBlogRendering(trx: Transaction<Database>, id: string, rendered: RenderedMarkdown): Promise<void> {
  await trx.updateTable('blogs').set(renderedColumns(rendered)).where('id', '=', id).where('html', 'is', null).execute();
}

function imageColumns(image: StoredImage | null) {
  return {
    image_key: image?.key ?? null,
    image_width: image?.width ?? null,
    image_height: image?.height ?? null,
    image_variant_widths: image?.variantWidths ?? null,
  };
}
