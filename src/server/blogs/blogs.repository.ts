import { sql, type Kysely, type Transaction, type Updateable } from 'kysely';
import type { BlogStatus, Database } from '../db/schema.js';
import type { RenderedMarkdown } from '../markdown/render-markdown.js';
import type { StoredImage } from '../images/stored-image.js';
import type { BlogSort } from '../../shared/blog-schema.js';
import { selectBlogSummaryRows, type BlogSummaryRow } from '../core/blog-rows.repository.js';
import { blogVisibleTo } from '../core/blog-visibility.js';
import { imageColumns, renderedColumns } from '../core/blog-writes.repository.js';
import { lockedBatch } from '../db/locked-batch.js';

type Db = Kysely<Database> | Transaction<Database>;

/**
 * The columns each list order sorts by, each ending in `id` so the order is total (no blog shows
 * on two pages). Each matches an index: `blogs_home_order_idx`, `blogs_newest_idx`,
 * `blogs_hot_idx` (`blogs.test.ts` checks the plans at 10,000 blogs).
 */
const ORDERS = {
  top: ['blogs.rating', 'blogs.created_at', 'blogs.id'],
  new: ['blogs.created_at', 'blogs.id'],
  hot: ['blogs.hot_score', 'blogs.id'],
} as const satisfies Record<BlogSort, readonly string[]>;

/** Which public blogs a list shows: all, one author's, or those carrying one tag. */
export interface ListFilter {
  authorId?: string;
  tag?: string;
}

/**
 * The ids of one page of public blogs in an order, unexecuted (the tests read its plan). The offset
 * runs over the order's index alone (an index-only scan), so deep pages skip index entries
 * instead of joined rows. A tag's list reads `blogs_tags_idx` (GIN) and sorts its blogs, or walks
 * the order's index when the tag is on most blogs: the planner weighs the two by the tag's share.
 */
export function selectPageIds(db: Kysely<Database>, sort: BlogSort, options: { offset: number; limit: number } & ListFilter) {
  let query = db.selectFrom('blogs').select('blogs.id').where(blogVisibleTo(null));
  if (options.authorId !== undefined) query = query.where('blogs.user_id', '=', options.authorId);
  if (options.tag !== undefined) query = query.where('blogs.tags', '@>', sql<string[]>`array[${options.tag}]::text[]`);
  for (const column of ORDERS[sort]) query = query.orderBy(column, 'desc');
  return query.offset(options.offset).limit(options.limit);
}

/**
 * One page of public blogs as cards show them, in `sort` order, optionally one author's, as
 * anyone sees it (no viewer's vote: `selectViewerVotes` adds those); only the few ids of the page
 * are joined to their authors.
 */
export async function selectListPage(
  db: Kysely<Database>,
  sort: BlogSort,
  options: { offset: number; limit: number } & ListFilter,
): Promise<BlogSummaryRow[]> {
  let query = selectBlogSummaryRows(db, null).where('blogs.id', 'in', selectPageIds(db, sort, options));
  for (const column of ORDERS[sort]) query = query.orderBy(column, 'desc');
  return query.execute();
}

/** A user's e-mail and profile, or undefined when there is no such user. */
export async function findAuthor(db: Kysely<Database>, userId: string) {
  return db.selectFrom('user').select(['email', 'handle', 'display_name', 'bio']).where('id', '=', userId).executeTakeFirst();
}

/** One page of a user's drafts, the last changed first (the one they were just writing on top). */
export async function selectDraftsPage(db: Db, userId: string, options: { offset: number; limit: number }): Promise<BlogSummaryRow[]> {
  return selectBlogSummaryRows(db, userId)
    .where('blogs.user_id', '=', userId)
    .where('blogs.status', '=', 'draft')
    .orderBy('blogs.updated_at', 'desc')
    .orderBy('blogs.id', 'desc')
    .offset(options.offset)
    .limit(options.limit)
    .execute();
}

/**
 * The owner, image and status of a blog `userId` may see, locked until the transaction ends;
 * undefined if there is none (someone else's draft is none: it answers like a missing blog).
 */
export async function lockBlogOwnership(trx: Transaction<Database>, id: string, userId: string, anyBlog = false) {
  let query = trx.selectFrom('blogs').select(['user_id', 'image_key', 'status', 'publish_at', 'submitted_at']).where('id', '=', id);
  // An editor (issue 44) may change any blog, in any state.
  if (!anyBlog) query = query.where(blogVisibleTo(userId));
  return query.forUpdate().executeTakeFirst();
}

/** What a blog's status decides, as written by an edit and by Posts' 'Publish' and 'Unpublish'. */
interface StatusChange {
  status: BlogStatus;
  publishAt: Date | null;
  /** A draft published now: `created_at` moves to now. */
  publishedNow: boolean;
  submittedAt?: Date | null;
}

/** Writes `columns` and the status's own into a blog of `userId`'s; whether a row changed. */
async function updateOwnBlogRow(db: Db, id: string, userId: string, change: StatusChange, columns: Updateable<Database['blogs']> = {}): Promise<boolean> {
  const now = new Date();
  const result = await db
    .updateTable('blogs')
    .set({
      ...columns,
      status: change.status,
      publish_at: change.publishAt,
      ...(change.publishedNow ? { created_at: now } : {}),
      ...(change.submittedAt !== undefined ? { submitted_at: change.submittedAt } : {}),
      updated_at: now,
    })
    // Also filtered by owner, so a write can never touch another user's blog.
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** An edit: the text, tags, image and status. Returns whether a row changed. */
export function updateOwnBlog(
  db: Db,
  id: string,
  userId: string,
  changes: StatusChange & { title: string; body: string; tags?: string[]; rendered: RenderedMarkdown; image?: StoredImage },
): Promise<boolean> {
  return updateOwnBlogRow(db, id, userId, changes, {
    title: changes.title,
    body: changes.body,
    ...(changes.tags !== undefined ? { tags: changes.tags } : {}),
    ...renderedColumns(changes.rendered),
    ...(changes.image !== undefined ? imageColumns(changes.image) : {}),
  });
}

/**
 * Only a blog's status (issue 59: Posts' 'Publish' and 'Unpublish'): its text, tags and image stay
 * as they are. Publishing a draft moves `created_at` to now, as an edit's publish does.
 */
export function setOwnBlogStatus(db: Db, id: string, userId: string, change: StatusChange): Promise<boolean> {
  return updateOwnBlogRow(db, id, userId, change);
}

export async function deleteOwnBlog(db: Db, id: string, userId: string): Promise<boolean> {
  const result = await db.deleteFrom('blogs').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/** Who owns a blog `userId` may see, without locking it (the write re-checks under a lock). */
export async function findBlogOwner(db: Db, id: string, userId: string, anyBlog = false): Promise<string | undefined> {
  let query = db.selectFrom('blogs').select('user_id').where('id', '=', id);
  if (!anyBlog) query = query.where(blogVisibleTo(userId));
  const row = await query.executeTakeFirst();
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
    .$call(lockedBatch(limit))
    .execute();
}

export async function saveBlogRendering(trx: Transaction<Database>, id: string, rendered: RenderedMarkdown): Promise<void> {
  await trx.updateTable('blogs').set(renderedColumns(rendered)).where('id', '=', id).where('html', 'is', null).execute();
}

/** Rendered blogs whose excerpt was cleared to be made again (migration 2026-11-25-05), locked for this transaction. */
export async function lockBlogsWithoutExcerpt(trx: Transaction<Database>, limit: number) {
  return trx
    .selectFrom('blogs')
    .select(['id', 'body'])
    .where('excerpt', 'is', null)
    .where('html', 'is not', null)
    .orderBy('id')
    .$call(lockedBatch(limit))
    .execute();
}

/** Only the excerpt: the stored HTML keeps the inline images' sizes that the save knew. */
export async function saveBlogExcerpt(trx: Transaction<Database>, id: string, excerpt: string): Promise<void> {
  await trx.updateTable('blogs').set({ excerpt }).where('id', '=', id).where('excerpt', 'is', null).execute();
}

/** Takes the cover image off the owner's blog (an edit: `updated_at` moves). */
export async function clearOwnBlogImage(db: Db, id: string, userId: string): Promise<void> {
  await db
    .updateTable('blogs')
    .set({ ...imageColumns(null), updated_at: new Date() })
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .execute();
}

/** A scheduled draft becomes public, if it is still scheduled for `publishAt`; answers whether it did. */
export async function publishScheduledDraft(db: Db, id: string, publishAt: Date): Promise<boolean> {
  const now = new Date();
  const row = await db
    .updateTable('blogs')
    .set({ status: 'published', publish_at: null, created_at: now, updated_at: now })
    .where('id', '=', id)
    .where('status', '=', 'draft')
    .where('publish_at', '=', publishAt)
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

/** Marks a draft as waiting for an editor's review (issue 44), or clears the mark. */
export async function setBlogSubmitted(db: Db, id: string, submittedAt: Date | null): Promise<void> {
  await db.updateTable('blogs').set({ submitted_at: submittedAt }).where('id', '=', id).execute();
}

/** Who reviews: the owner, administrators and editors, and the addresses of `MODERATOR_EMAILS`. */
export async function selectReviewerEmails(db: Db, moderatorEmails: readonly string[]): Promise<string[]> {
  const rows = await db
    .selectFrom('user')
    .select('email')
    .where('suspended_at', 'is', null)
    .where((eb) => eb.or([eb('role', 'in', ['owner', 'administrator', 'editor']), ...(moderatorEmails.length > 0 ? [eb(eb.fn('lower', ['email']), 'in', [...moderatorEmails])] : [])]))
    .execute();
  return [...new Set(rows.map((row) => row.email))];
}

/**
 * The blog a readable address names, if `viewerId` may see it (`blogVisibleTo`: a draft or hidden
 * blog only for its author, as `/viewBlog?id=`), and its current slug: an old address names its
 * blog until another blog takes it.
 */
export async function findBlogBySlug(db: Db, slug: string, viewerId: string | null) {
  return db
    .selectFrom('blog_slugs')
    .innerJoin('blogs', 'blogs.id', 'blog_slugs.blog_id')
    .select(['blogs.id', 'blogs.slug'])
    .where('blog_slugs.slug', '=', slug)
    .where(blogVisibleTo(viewerId))
    .executeTakeFirst();
}
