import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

/** On unless the user turned it off (no row: the default). */
export async function isCommentMailEnabled(db: Kysely<Database>, userId: string): Promise<boolean> {
  const row = await db.selectFrom('comment_mail_settings').select('enabled').where('user_id', '=', userId).executeTakeFirst();
  return row?.enabled ?? true;
}

/** False: no such user (deleted since the link was sent). */
export async function saveCommentMailSetting(db: Kysely<Database>, userId: string, enabled: boolean): Promise<boolean> {
  const user = await db.selectFrom('user').select('id').where('id', '=', userId).executeTakeFirst();
  if (!user) return false;
  await db
    .insertInto('comment_mail_settings')
    .values({ user_id: userId, enabled })
    .onConflict((conflict) => conflict.column('user_id').doUpdateSet({ enabled, updated_at: sql`now()` }))
    .execute();
  return true;
}

/**
 * Claims the one mail a user may get about a blog per window, in one statement: true when no mail
 * went out in the last `windowSeconds` (and this call is now the one that sends), false otherwise.
 * Being one row upsert, two processes claiming at the same moment cannot both win.
 */
export async function claimCommentMailSlot(db: Kysely<Database>, userId: string, blogId: string, windowSeconds: number): Promise<boolean> {
  const claimed = await db
    .insertInto('comment_mail_sent')
    .values({ user_id: userId, blog_id: blogId, sent_at: sql<Date>`now()` })
    .onConflict((conflict) =>
      conflict
        .columns(['user_id', 'blog_id'])
        .doUpdateSet({ sent_at: (eb) => eb.ref('excluded.sent_at') })
        .where('comment_mail_sent.sent_at', '<=', sql<Date>`now() - make_interval(secs => ${windowSeconds})`),
    )
    .returning('user_id')
    .executeTakeFirst();
  return claimed !== undefined;
}

/** What a mail about a comment needs: who wrote it, on which blog, and the people to tell. */
export async function findCommentMailFacts(db: Kysely<Database>, commentId: string) {
  return db
    .selectFrom('comments')
    .innerJoin('blogs', 'blogs.id', 'comments.blog_id')
    .innerJoin('user as commenter', 'commenter.id', 'comments.user_id')
    .innerJoin('user as blog_owner', 'blog_owner.id', 'blogs.user_id')
    .leftJoin('comments as parent', 'parent.id', 'comments.parent_id')
    .leftJoin('user as parent_author', 'parent_author.id', 'parent.user_id')
    .select([
      'comments.id',
      'comments.body',
      'comments.user_id as commenter_id',
      'commenter.email as commenter_email',
      'commenter.display_name as commenter_display_name',
      'commenter.handle as commenter_handle',
      'blogs.id as blog_id',
      'blogs.title as blog_title',
      'blogs.slug as blog_slug',
      'blogs.user_id as blog_owner_id',
      'blog_owner.email as blog_owner_email',
      'parent.user_id as parent_author_id',
      'parent_author.email as parent_author_email',
    ])
    .where('comments.id', '=', commentId)
    .where('comments.hidden_at', 'is', null)
    .executeTakeFirst();
}
