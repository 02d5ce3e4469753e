import type { Kysely } from 'kysely';
import type { Database, VoteDirection } from '../db/schema.js';

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
      'user.email as author',
      'my_vote.direction as my_vote',
    ]);
}

export interface BlogRow {
  id: string;
  title: string;
  body: string;
  /** Null only for rows the start-up backfill has not reached yet. */
  html: string | null;
  excerpt: string | null;
  reading_minutes: number | null;
  user_id: string;
  image_key: string | null;
  image_width: number | null;
  image_height: number | null;
  image_variant_widths: number[] | null;
  created_at: Date;
  updated_at: Date;
  upvotes: number;
  downvotes: number;
  rating: number;
  author: string;
  my_vote: VoteDirection | null;
}
