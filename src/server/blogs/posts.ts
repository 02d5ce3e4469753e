import { sql, type Kysely } from 'kysely';
import { messages } from '../../shared/messages.js';
import { paths } from '../../shared/paths.js';
import { POST_AUTHORS_MAX, POSTS_PAGE_SIZE, type PostActions, type PostAuthors, type PostRow, type PostStatus, type PostsPage, type ReviewState, type postsQuerySchema } from '../../shared/posts-schema.js';
import type { z } from 'zod';
import type { Config } from '../config.js';
import { may } from '../core/access.js';
import type { SessionUser } from '../core/session-user.js';
import type { SiteSettingsAccess } from '../core/site-settings.js';
import type { Database } from '../db/schema.js';
import { badRequest, notFound } from '../errors.js';
import type { Mailer } from '../mail/mailer.js';
import { parseId } from '../http/ids.js';

/**
 * Posts (issue 59): every blog in one list for those who may edit any blog, a writer's own for
 * everyone else who writes; each row says what the visitor may do with it (`may`, as the write
 * routes decide). The review queue: an editor sends a submitted draft back with a note, and the
 * writer is mailed when it is sent back or published.
 */

export interface PostsDeps {
  db: Kysely<Database>;
  config: Config;
  siteSettings: SiteSettingsAccess;
}

type Query = z.output<typeof postsQuerySchema>;

const noSuchBlog = () => notFound(messages.blogDoesNotExist);

/** The status in words from the columns: hidden and suspended are one for the list; a waiting draft is scheduled or submitted. */
const statusSql = sql<PostStatus>`case
  when blogs.status = 'published' and (blogs.hidden_at is not null or blogs.author_suspended_at is not null) then 'hidden'
  when blogs.status = 'published' then 'published'
  when blogs.publish_at is not null then 'scheduled'
  when blogs.submitted_at is not null then 'submitted'
  else 'draft' end`;

/** `%` and `_` typed in the search box are themselves, not patterns. */
const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** What the visitor may do with a row: the same rules the write routes apply (`blog-review.ts`). */
function actionsFor(deps: PostsDeps, user: SessionUser, ownBlog: boolean, status: PostStatus, reviewNewBlogs: boolean): PostActions {
  const anyBlog = may(deps.config, user, { blog: 'editAny' });
  const writes = may(deps.config, user, { blog: 'draft' });
  const edit = anyBlog || (ownBlog && writes);
  const publishesOwn = may(deps.config, user, { blog: 'publish' }) && !reviewNewBlogs;
  const isPublic = status === 'published' || status === 'hidden';
  return {
    edit,
    publish: !isPublic && (anyBlog || (ownBlog && publishesOwn)),
    unpublish: isPublic && edit,
    delete: may(deps.config, user, { blog: 'deleteAny' }) || (ownBlog && writes),
  };
}

/** One page of Posts as the visitor may see it: every blog (editors and above) or their own. */
export async function listPosts(deps: PostsDeps, user: SessionUser, query: Query): Promise<PostsPage> {
  const all: boolean = may(deps.config, user, { blog: 'editAny' });
  let select = deps.db
    .selectFrom('blogs')
    .innerJoin('user', 'user.id', 'blogs.user_id')
    .select([
      'blogs.id',
      'blogs.title',
      'blogs.slug',
      'blogs.user_id',
      'blogs.tags',
      'blogs.updated_at',
      'blogs.submitted_at',
      'blogs.publish_at',
      'user.email',
      'user.display_name',
      'user.handle',
      statusSql.as('post_status'),
    ]);
  if (!all || query.mine) select = select.where('blogs.user_id', '=', user.id);
  if (query.author) select = select.where('blogs.user_id', '=', query.author);
  if (query.tag) select = select.where('blogs.tags', '@>', sql<string[]>`array[${query.tag.toLowerCase()}]::text[]`);
  if (query.q) select = select.where('blogs.title', 'ilike', likePattern(query.q));
  if (query.status) select = select.where(statusSql, '=', query.status);
  const rows = await select
    .orderBy('blogs.updated_at', 'desc')
    .orderBy('blogs.id', 'desc')
    .offset((query.page - 1) * POSTS_PAGE_SIZE)
    .limit(POSTS_PAGE_SIZE + 1)
    .execute();
  const { reviewNewBlogs } = await deps.siteSettings.get();
  const items: PostRow[] = rows.slice(0, POSTS_PAGE_SIZE).map((row) => ({
    id: row.id,
    title: row.title,
    slug: row.slug,
    status: row.post_status,
    author: { id: row.user_id, name: authorName(row), handle: row.handle, email: row.email },
    tags: row.tags,
    updatedAt: new Date(row.updated_at).toISOString(),
    submittedAt: row.submitted_at ? new Date(row.submitted_at).toISOString() : null,
    publishAt: row.publish_at ? new Date(row.publish_at).toISOString() : null,
    actions: actionsFor(deps, user, row.user_id === user.id, row.post_status, reviewNewBlogs),
  }));
  return { items, page: query.page, pageSize: POSTS_PAGE_SIZE, hasMore: rows.length > POSTS_PAGE_SIZE, scope: all && !query.mine ? 'all' : 'own' };
}

/** A writer's name as Posts shows it: their display name, else their handle. */
const authorName = (row: { display_name: string | null; handle: string }) => row.display_name?.trim() || row.handle;

/**
 * Every account that has a blog, by name, for Posts' 'Author' filter (editors and above), whatever
 * page the list is on: one pass over the accounts, each asked for one blog by `blogs.user_id`'s
 * index; at most `POST_AUTHORS_MAX`.
 */
export async function listPostAuthors(deps: Pick<PostsDeps, 'db'>): Promise<PostAuthors> {
  const rows = await deps.db
    .selectFrom('user')
    .select(['user.id', 'user.email', 'user.display_name', 'user.handle'])
    .where(({ exists, selectFrom }) => exists(selectFrom('blogs').select('blogs.id').whereRef('blogs.user_id', '=', 'user.id')))
    .orderBy(sql`lower(coalesce(nullif(trim(${sql.ref('user.display_name')}), ''), ${sql.ref('user.handle')}))`)
    .orderBy('user.id')
    .limit(POST_AUTHORS_MAX + 1)
    .execute();
  return {
    items: rows.slice(0, POST_AUTHORS_MAX).map((row) => ({ id: row.id, name: authorName(row), handle: row.handle, email: row.email })),
    hasMore: rows.length > POST_AUTHORS_MAX,
  };
}

/** Who submitted a draft and when, for an editor opening it (404 for a blog that is not there). */
export async function reviewState(deps: PostsDeps, rawId: string): Promise<ReviewState> {
  const id = parseId(rawId, noSuchBlog);
  const row = await deps.db
    .selectFrom('blogs')
    .innerJoin('user', 'user.id', 'blogs.user_id')
    .select(['blogs.submitted_at', 'user.email', 'user.display_name', 'user.handle'])
    .where('blogs.id', '=', id)
    .executeTakeFirst();
  if (!row) throw noSuchBlog();
  return {
    submittedAt: row.submitted_at ? new Date(row.submitted_at).toISOString() : null,
    submittedBy: { name: authorName(row), email: row.email },
  };
}

/**
 * An editor returns a submitted draft to its writer: it is a draft again, no longer waiting
 * (`submitted_at` cleared; it was never public, so no visibility event), and the writer is mailed
 * the note through the queued mailer.
 */
export async function sendBack(deps: PostsDeps & { mailer: Mailer }, rawId: string, note: string): Promise<void> {
  const id = parseId(rawId, noSuchBlog);
  const blog = await deps.db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom('blogs')
      .innerJoin('user', 'user.id', 'blogs.user_id')
      .select(['blogs.id', 'blogs.title', 'blogs.status', 'blogs.submitted_at', 'user.email'])
      .where('blogs.id', '=', id)
      .forUpdate('blogs')
      .executeTakeFirst();
    if (!row) throw noSuchBlog();
    if (row.status !== 'draft' || row.submitted_at === null) throw badRequest('This blog does not wait for review.', 'NOT_SUBMITTED');
    await trx.updateTable('blogs').set({ submitted_at: null }).where('id', '=', id).execute();
    return row;
  });
  const { siteName } = await deps.siteSettings.get();
  const quoted = note
    .split('\n')
    .map((line) => `> ${line}`)
    .join('\n');
  await deps.mailer.send({
    to: blog.email,
    subject: 'Your draft was sent back',
    text: `An editor of ${siteName} sent your draft back: ${blog.title || '(untitled)'}\n\nTheir note:\n\n${quoted}\n\nChange it and submit it again here:\n${deps.config.publicUrl}${paths.edit(blog.id)}\n`,
  });
}

/** The writer of a submitted draft an editor just published is told where readers find it. */
export async function mailWriterPublished(deps: PostsDeps & { mailer: Mailer }, blog: { title: string; slug: string; userId: string }): Promise<void> {
  const writer = await deps.db.selectFrom('user').select('email').where('id', '=', blog.userId).executeTakeFirst();
  if (!writer) return;
  const { siteName } = await deps.siteSettings.get();
  await deps.mailer.send({
    to: writer.email,
    subject: 'Your draft was published',
    text: `An editor of ${siteName} published your draft: ${blog.title}\n\nReaders find it here:\n${deps.config.publicUrl}${paths.blog(blog.slug)}\n`,
  });
}
