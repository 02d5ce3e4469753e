import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

/**
 * The one query shape every blog listing starts from (home, one blog, search): the blog, its
 * author's e-mail, and the viewer's own vote. Callers add where/order/limit.
 */
export function selectBlogRows(db: Kysely<Database>, viewerId: string | null) {
  return db
    .selectFrom('blogs')
    .innerJoin('user', 'user.id', 'blogs.user_id')
    .leftJoin('votes as my_vote', (join) =>
      join.onRef('my_vote.blog_id', '=', 'blogs.id').on('my_vote.user_id', '=', viewerId ?? ''),
    )
    .select([
      'blogs.id',
      'blogs.title',
      'blogs.body',
      'blogs.html',
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
      'user.email as author',
      'my_vote.direction as my_vote',
    ]);
}

/** A row of `selectBlogRows`, derived from the query so the two cannot drift apart. */
export type BlogRow = Awaited<ReturnType<ReturnType<typeof selectBlogRows>['executeTakeFirstOrThrow']>>;
