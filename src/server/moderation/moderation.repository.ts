import { type ExpressionBuilder, type Kysely, type SelectQueryBuilder, sql, type Transaction } from 'kysely';
import type { Database, ModerationLogTable, ReportReason, ReportStatus, ReportTargetType } from '../db/schema.js';
import { blogVisibleTo } from '../core/blog-visibility.js';
import { isCommentVisibleTo } from '../core/comment-visibility.js';

type Db = Kysely<Database> | Transaction<Database>;

/** How many open reports, hidden items, suspended accounts and log entries the page shows at most. */
export const MODERATION_LIST_LIMIT = 100;
export const MODERATION_LOG_LIMIT = 50;

/** A reportable item as the moderators see it, whatever its type (its store in `TARGETS` knows which). */
export interface TargetRow {
  id: string;
  blog_id: string;
  title: string;
  excerpt: string | null;
  body: string;
  /** Null for a reply from the fediverse: its author is not an account here (no suspension). */
  author_id: string | null;
  /** The account's e-mail, or a remote author's name and profile page. */
  author_email: string;
  author_suspended_at: Date | null;
  hidden_at: Date | null;
}

/**
 * What moderation needs of each kind of content: find it, list the hidden ones, hide and restore
 * it. Blogs are here; comments plug in as a second entry of `TARGETS` with the same shape.
 */
interface TargetStore {
  /** The item if the reader may see it (a reader can only report what they can read). */
  findVisible(db: Db, id: string, viewerId: string): Promise<{ id: string; authorId: string | null } | undefined>;
  findMany(db: Db, ids: string[]): Promise<TargetRow[]>;
  listHidden(db: Db, limit: number): Promise<TargetRow[]>;
  /** Sets or clears `hidden_at`; answers the item's label and blog, or undefined when there is no such item. */
  setHidden(trx: Transaction<Database>, id: string, moderatorId: string | null): Promise<{ label: string; blogId: string } | undefined>;
  /** Closes the open reports on an author's items (suspending the author hides all of them). */
  closeReportsByAuthor(trx: Transaction<Database>, authorId: string, moderatorId: string): Promise<void>;
}

/**
 * `findMany` and `listHidden` of a kind of content, from the query that selects its items as
 * moderators see them (`TargetRow`'s columns, filtered and ordered as one table).
 */
function targetLists<DB, TB extends keyof DB>(targets: (db: Db) => SelectQueryBuilder<DB, TB, TargetRow>): Pick<TargetStore, 'findMany' | 'listHidden'> {
  const asTable = (db: Db) => db.selectFrom(targets(db).as('target')).selectAll();
  return {
    async findMany(db, ids) {
      if (ids.length === 0) return [];
      return asTable(db).where('target.id', 'in', ids).execute();
    },
    async listHidden(db, limit) {
      return asTable(db).where('target.hidden_at', 'is not', null).orderBy('target.hidden_at', 'desc').limit(limit).execute();
    },
  };
}

/** Closes the open reports on the items of `type` that `items` selects, as `moderatorId`'s doing. */
async function closeOpenReports<TB extends keyof Database>(
  trx: Transaction<Database>,
  type: ReportTargetType,
  moderatorId: string,
  items: (eb: ExpressionBuilder<Database, 'reports'>) => SelectQueryBuilder<Database, TB, { id: string }>,
): Promise<void> {
  await trx
    .updateTable('reports')
    .set({ status: 'resolved', closed_at: new Date(), closed_by: moderatorId })
    .where('status', '=', 'open')
    .where('target_type', '=', type)
    .where('target_id', 'in', items)
    .execute();
}

/** A reportable item's id and its author's, as `findVisible` answers them. */
const asReportable = (row: { id: string; user_id: string | null } | undefined) => row && { id: row.id, authorId: row.user_id };

/** When an item is hidden: now, or never again when restored (`moderatorId` null). */
const hiddenAt = (moderatorId: string | null) => (moderatorId === null ? null : new Date());

const blogTargets = (db: Db) =>
  db
    .selectFrom('blogs')
    .innerJoin('user as author', 'author.id', 'blogs.user_id')
    .select([
      'blogs.id',
      'blogs.id as blog_id',
      'blogs.title',
      'blogs.excerpt',
      'blogs.body',
      'author.id as author_id',
      'author.email as author_email',
      'author.suspended_at as author_suspended_at',
      'blogs.hidden_at',
    ]);

const blogStore: TargetStore = {
  async findVisible(db, id, viewerId) {
    const visible = db.selectFrom('blogs').where('blogs.id', '=', id).where(blogVisibleTo(viewerId));
    return asReportable(await visible.select(['blogs.id', 'blogs.user_id']).executeTakeFirst());
  },
  ...targetLists(blogTargets),
  async setHidden(trx, id, moderatorId) {
    const row = await trx
      .updateTable('blogs')
      .set({ hidden_at: hiddenAt(moderatorId), hidden_by: moderatorId })
      .where('id', '=', id)
      .returning(['title', 'id'])
      .executeTakeFirst();
    return row && { label: row.title, blogId: row.id };
  },
  async closeReportsByAuthor(trx, authorId, moderatorId) {
    await closeOpenReports(trx, 'blog', moderatorId, (eb) => eb.selectFrom('blogs').select('blogs.id').where('blogs.user_id', '=', authorId));
  },
};

/** What a comment's moderator sees: the comment's text, under its blog's title. */
const commentTargets = (db: Db) =>
  db
    .selectFrom('comments')
    .innerJoin('blogs', 'blogs.id', 'comments.blog_id')
    .leftJoin('user as author', 'author.id', 'comments.user_id')
    .select(['comments.id', 'comments.blog_id', 'comments.body', 'comments.author_suspended_at', 'comments.hidden_at', 'blogs.title', 'author.id as author_id'])
    .select([
      // A comment has no excerpt of its own: the page shows the start of its text (`toTarget`).
      sql<string | null>`null`.as('excerpt'),
      sql<string>`coalesce(author.email, comments.remote_author_name || ' (' || comments.remote_author_url || ')', '')`.as('author_email'),
    ]);

const commentLabel = (blogTitle: string, body: string) => `comment on “${blogTitle}”: ${body.length > 80 ? `${body.slice(0, 80)}…` : body}`;

const commentStore: TargetStore = {
  async findVisible(db, id, viewerId) {
    const visible = db
      .selectFrom('comments')
      .innerJoin('blogs', 'blogs.id', 'comments.blog_id')
      .where('comments.id', '=', id)
      .where(isCommentVisibleTo(viewerId))
      .where(blogVisibleTo(viewerId));
    return asReportable(await visible.select(['comments.id', 'comments.user_id']).executeTakeFirst());
  },
  ...targetLists(commentTargets),
  async setHidden(trx, id, moderatorId) {
    const row = await trx
      .updateTable('comments')
      .set({ hidden_at: hiddenAt(moderatorId) })
      .where('id', '=', id)
      .returning(['blog_id', 'body'])
      .executeTakeFirst();
    if (!row) return undefined;
    const blog = await trx.selectFrom('blogs').select('title').where('id', '=', row.blog_id).executeTakeFirstOrThrow();
    return { label: commentLabel(blog.title, row.body), blogId: row.blog_id };
  },
  async closeReportsByAuthor(trx, authorId, moderatorId) {
    await closeOpenReports(trx, 'comment', moderatorId, (eb) => eb.selectFrom('comments').select('comments.id').where('comments.user_id', '=', authorId));
  },
};

export const TARGETS: Record<ReportTargetType, TargetStore | undefined> = {
  blog: blogStore,
  comment: commentStore,
};

export async function insertReport(
  db: Db,
  report: { reporterId: string; targetType: ReportTargetType; targetId: string; reason: ReportReason; details: string | null },
): Promise<string> {
  const row = await db
    .insertInto('reports')
    .values({
      reporter_id: report.reporterId,
      target_type: report.targetType,
      target_id: report.targetId,
      reason: report.reason,
      details: report.details,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** The unique index that allows one open report per reader per item. */
export const ONE_OPEN_REPORT_INDEX = 'reports_one_open_idx';

export async function selectOpenReports(db: Db, limit: number) {
  return db
    .selectFrom('reports')
    .innerJoin('user as reporter', 'reporter.id', 'reports.reporter_id')
    .selectAll('reports')
    .select('reporter.email as reporter_email')
    .where('reports.status', '=', 'open')
    .orderBy('reports.created_at')
    .orderBy('reports.id')
    .limit(limit)
    .execute();
}

export async function findOpenReport(trx: Transaction<Database>, id: string) {
  return trx
    .selectFrom('reports')
    .select(['id', 'target_type', 'target_id'])
    .where('id', '=', id)
    .where('status', '=', 'open')
    .forUpdate()
    .executeTakeFirst();
}

/** Closes one report, or every open report on the given items; answers how many closed. */
export async function closeReports(
  trx: Transaction<Database>,
  filter: { reportId: string } | { targetType: ReportTargetType; targetIds: string[] },
  status: Exclude<ReportStatus, 'open'>,
  moderatorId: string,
): Promise<number> {
  if ('targetIds' in filter && filter.targetIds.length === 0) return 0;
  let query = trx
    .updateTable('reports')
    .set({ status, closed_at: new Date(), closed_by: moderatorId })
    .where('status', '=', 'open');
  query =
    'reportId' in filter
      ? query.where('id', '=', filter.reportId)
      : query.where('target_type', '=', filter.targetType).where('target_id', 'in', filter.targetIds);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export async function findUser(db: Db, userId: string) {
  return db.selectFrom('user').select(['id', 'email', 'role', 'suspended_at']).where('id', '=', userId).executeTakeFirst();
}

/**
 * Suspends or lifts a suspension; answers the account's e-mail, or undefined when there is no
 * such account. Suspending also ends every session of the account, in the caller's transaction.
 */
/**
 * Locks an account against new blogs (a lock that blocks key-share): a blog being inserted for it
 * at the same moment either commits before and is seen by what follows, or waits and copies the
 * suspension. False when there is no such account.
 */
export async function lockAccount(trx: Transaction<Database>, userId: string): Promise<boolean> {
  return (await trx.selectFrom('user').select('id').where('id', '=', userId).forUpdate().executeTakeFirst()) !== undefined;
}

/** The caller has locked the account (`lockAccount`) in this transaction, before reading its blogs. */
export async function setSuspended(trx: Transaction<Database>, userId: string, suspended: boolean): Promise<string | undefined> {
  const row = await trx
    .updateTable('user')
    .set({ suspended_at: suspended ? new Date() : null })
    .where('id', '=', userId)
    .returning('email')
    .executeTakeFirst();
  if (!row) return undefined;
  // The public rule reads the suspension from each blog's own row (see blog-visibility.ts).
  const at = suspended ? new Date() : null;
  await trx.updateTable('blogs').set({ author_suspended_at: at }).where('user_id', '=', userId).execute();
  await trx.updateTable('comments').set({ author_suspended_at: at }).where('user_id', '=', userId).execute();
  if (suspended) await trx.deleteFrom('session').where('userId', '=', userId).execute();
  return row.email;
}

export async function selectSuspendedUsers(db: Db, limit: number) {
  return db
    .selectFrom('user')
    .select(['id', 'email', 'suspended_at'])
    .where('suspended_at', 'is not', null)
    .orderBy('suspended_at', 'desc')
    .limit(limit)
    .execute();
}

export type LogEntry = Omit<ModerationLogTable, 'id' | 'created_at'>;

export async function insertLogEntry(trx: Transaction<Database>, entry: LogEntry): Promise<void> {
  await trx.insertInto('moderation_log').values(entry).execute();
}

export async function selectLog(db: Db, limit: number) {
  return db.selectFrom('moderation_log').selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
}
