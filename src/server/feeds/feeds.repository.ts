import { type Kysely, sql } from 'kysely';
import { blogVisibleTo } from '../core/blog-visibility.js';
import type { Database } from '../db/schema.js';

/**
 * Every feed and sitemap query. Each request runs one of these (the sitemap index two). The
 * newest blogs come from `blogs_newest_idx` or `blogs_user_newest_idx`, sitemap parts are id
 * ranges of `blogs_sitemap_idx` (keyset paging by id, never OFFSET), so each reads about as many
 * rows as it returns. Queries are returned unexecuted, so `feeds.test.ts` can check their plans.
 * Every one shows public blogs only (`blogVisibleTo(null)`: no drafts), the condition the partial
 * indexes are built on.
 */

/** What a feed shows of a blog: its rendering (`body` only for a row the start-up backfill has not rendered yet). */
const FEED_COLUMNS = ['blogs.id', 'blogs.slug', 'blogs.title', 'blogs.body', 'blogs.html', 'blogs.excerpt', 'blogs.created_at', 'blogs.updated_at', 'blogs.tags'] as const;

/** Who wrote it: `publicAuthorName` names them from these as the site's 'Show authors by' says. */
const AUTHOR_COLUMNS = ['user.email as author_email', 'user.display_name as author_display_name', 'user.handle as author_handle'] as const;

/**
 * When the feeds and sitemaps last changed (kept by the triggers of migration 2026-11-24-01), and
 * the database's clock now, so both times come from one clock.
 */
export function feedsChangedAt(db: Kysely<Database>) {
  return db.selectFrom('feeds_changed').select(['changed_at', sql<Date>`clock_timestamp()`.as('now')]);
}

/**
 * The newest blogs of the whole site, or of those carrying `tag`, with who their authors are. A
 * tag's are read from `blogs_tags_idx` (GIN) and sorted, or found walking `blogs_newest_idx` when
 * the tag is on most blogs, as the planner judges from the tag's share.
 */
export function newestBlogs(db: Kysely<Database>, limit: number, tag?: string) {
  const query = db
    .selectFrom('blogs')
    .innerJoin('user', 'user.id', 'blogs.user_id')
    .select([...FEED_COLUMNS, ...AUTHOR_COLUMNS])
    .where(blogVisibleTo(null))
    .orderBy('blogs.created_at', 'desc')
    .orderBy('blogs.id', 'desc')
    .limit(limit);
  return tag === undefined ? query : query.where('blogs.tags', '@>', sql<string[]>`array[${tag}]::text[]`);
}

/** The tags of public blogs (`tag_counts`), in name order: the sitemap's tag pages. */
/** The owner's pages (issue 58), for the sitemap: at most `limit`, oldest first. */
export function sitePageSlugs(db: Kysely<Database>, limit: number) {
  return db.selectFrom('site_pages').select(['slug', 'updated_at']).orderBy('created_at').orderBy('slug').limit(limit);
}

export function tagNames(db: Kysely<Database>, limit: number) {
  return db.selectFrom('tag_counts').select('tag').orderBy('tag').limit(limit);
}

/**
 * One author (who they are) and their newest blogs in one query: no row means no such user; one row with a
 * null blog means a user without blogs. The lateral subquery reads only the first `limit` rows
 * of the author's range in `blogs_user_newest_idx`, however many blogs they have.
 */
export function authorWithNewestBlogs(db: Kysely<Database>, authorId: string, limit: number) {
  return db
    .selectFrom('user')
    .leftJoinLateral(
      (eb) =>
        eb
          .selectFrom('blogs')
          .select(FEED_COLUMNS)
          .whereRef('blogs.user_id', '=', 'user.id')
          .where(blogVisibleTo(null))
          .orderBy('blogs.created_at', 'desc')
          .orderBy('blogs.id', 'desc')
          .limit(limit)
          .as('newest'),
      (join) => join.onTrue(),
    )
    .select([
      ...AUTHOR_COLUMNS,
      'newest.id',
      'newest.slug',
      'newest.title',
      'newest.body',
      'newest.html',
      'newest.excerpt',
      'newest.created_at',
      'newest.updated_at',
      'newest.tags',
    ])
    .where('user.id', '=', authorId)
    .orderBy('newest.created_at', 'desc')
    .orderBy('newest.id', 'desc');
}

/** Up to `limit` blogs in id order, from `fromId` (inclusive) or from the first. */
export function blogsById(db: Kysely<Database>, options: { fromId?: string; limit: number }) {
  const query = db.selectFrom('blogs').select(['id', 'slug', 'updated_at']).where(blogVisibleTo(null)).orderBy('id').limit(options.limit);
  return options.fromId === undefined ? query : query.where('id', '>=', options.fromId);
}

export interface SitemapPartRow {
  /** The part's first blog id: its keyset cursor. */
  first_id: string;
  last_modified: Date;
}

/**
 * The blogs cut into parts of `partSize` in id order, with each part's first id and newest
 * change, in one pass over `blogs_sitemap_idx`.
 */
export function sitemapParts(partSize: number) {
  return sql<SitemapPartRow>`
    with numbered as (
      select id, updated_at, row_number() over (order by id) - 1 as n from blogs where ${blogVisibleTo(null)}
    ), parted as (
      select id, updated_at, n / ${partSize} as part, n % ${partSize} = 0 as starts_part from numbered
    )
    select (array_agg(id) filter (where starts_part))[1] as first_id, max(updated_at) as last_modified
    from parted
    group by part
    order by part
  `;
}
