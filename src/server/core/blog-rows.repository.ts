import { type Kysely, sql, type Transaction } from 'kysely';
import { executePrepared } from '../db/prepared.js';
import type { Database } from '../db/schema.js';
import { blogVisibleTo } from './blog-visibility.js';

/** The blog, its author's e-mail, display name and handle (`publicAuthorName` picks one) and the viewer's own vote: what every listing starts from. */
function selectBlogBase(db: Kysely<Database>, viewerId: string | null) {
  return db
    .selectFrom('blogs')
    .innerJoin('user', 'user.id', 'blogs.user_id')
    .leftJoin('votes as my_vote', (join) =>
      join.onRef('my_vote.blog_id', '=', 'blogs.id').on('my_vote.user_id', '=', viewerId ?? ''),
    )
    .select([
      'blogs.id',
      'blogs.title',
      'blogs.slug',
      'blogs.excerpt',
      'blogs.reading_minutes',
      'blogs.user_id',
      'blogs.image_key',
      'blogs.image_width',
      'blogs.image_height',
      'blogs.image_variant_widths',
      'blogs.created_at',
      'blogs.updated_at',
      'blogs.upvotes',
      'blogs.downvotes',
      'blogs.rating',
      'blogs.hidden_at',
      'blogs.author_suspended_at',
      'blogs.comment_count',
      'blogs.status',
      'blogs.tags',
      'blogs.publish_at',
      'blogs.submitted_at',
      'user.email as author',
      'user.display_name as author_display_name',
      'user.handle as author_handle',
      'my_vote.direction as my_vote',
    ]);
}

/** A whole blog (its own page, the answer to a write): with its Markdown source and HTML. Callers add where. */
export function selectBlogRows(db: Kysely<Database>, viewerId: string | null) {
  return selectBlogBase(db, viewerId).select(['blogs.body', 'blogs.html']);
}

/**
 * Blogs as lists show them (home, search, author pages): without the source and its HTML, which
 * can be long. The source is read only for a row the start-up backfill has not rendered yet, to
 * make its excerpt from. Callers add where/order/limit.
 */
export function selectBlogSummaryRows(db: Kysely<Database>, viewerId: string | null) {
  return selectBlogBase(db, viewerId).select(
    sql<string | null>`case when blogs.excerpt is null or blogs.reading_minutes is null then blogs.body end`.as('unrendered_body'),
  );
}

/**
 * The votes some users gave some blogs (the primary key's probes): list pages' viewers' own
 * votes. Arrays, not `in` lists, so the text is the same for any number of them (prepared).
 */
export async function selectVotesOf(db: Kysely<Database>, userIds: readonly string[], blogIds: readonly string[]) {
  const query = db
    .selectFrom('votes')
    .select(['user_id', 'blog_id', 'direction'])
    .where('user_id', '=', sql<string>`any(${[...userIds]}::text[])`)
    .where('blog_id', '=', sql<string>`any(${[...blogIds]}::uuid[])`);
  return executePrepared(db, query);
}

/** A row of `selectBlogRows`, derived from the query so the two cannot drift apart. */
export type BlogRow = Awaited<ReturnType<ReturnType<typeof selectBlogRows>['executeTakeFirstOrThrow']>>;
export type BlogSummaryRow = Awaited<ReturnType<ReturnType<typeof selectBlogSummaryRows>['executeTakeFirstOrThrow']>>;

/** One blog as `viewerId` may see it (a draft only by its owner); undefined otherwise. */
export async function findBlogRow(db: Kysely<Database> | Transaction<Database>, viewerId: string | null, id: string): Promise<BlogRow | undefined> {
  return selectBlogRows(db, viewerId).where('blogs.id', '=', id).where(blogVisibleTo(viewerId)).executeTakeFirst();
}
