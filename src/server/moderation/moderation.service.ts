import type { Kysely, Transaction } from 'kysely';
import { messages } from '../../shared/messages.js';
import {
  REPORT_REASON_LABELS,
  type ModerationOverview,
  type ModerationTarget,
  type ReportReason,
  type ReportTargetType,
  type ModerationAction,
  type ReportCreated,
  type ReportInput,
} from '../../shared/moderation-schema.js';
import type { Config } from '../config.js';
import type { Database } from '../db/schema.js';
import { badRequest, conflict, notFound } from '../errors.js';
import type { SessionUser } from '../core/session-user.js';
import { isModerator } from '../core/moderators.js';
import { blogStatesBefore, recordBlogChange, recordBlogChanges } from '../core/blog-events.js';
import {
  closeReports,
  findOpenReport,
  findUser,
  insertLogEntry,
  insertReport,
  lockAccount,
  MODERATION_LIST_LIMIT,
  MODERATION_LOG_LIMIT,
  ONE_OPEN_REPORT_INDEX,
  selectLog,
  selectOpenReports,
  selectSuspendedUsers,
  setSuspended,
  TARGETS,
  type TargetRow,
} from './moderation.repository.js';
import { EVERYTHING_TAG, LISTS_TAG, blogTag } from '../../shared/cache-tags.js';
import { parseId } from '../http/ids.js';
import { brokenConstraint } from '../db/database-errors.js';

export interface ModerationDeps {
  db: Kysely<Database>;
  config: Config;
}

const noSuchItem = (type: ReportTargetType) => notFound(type === 'blog' ? messages.blogDoesNotExist : 'This comment does not exist.');

function targetStore(type: ReportTargetType) {
  const store = TARGETS[type];
  if (!store) throw noSuchItem(type);
  return store;
}

/** A signed-in reader reports an item they can see; one open report per reader per item. */
export async function createReport(deps: ModerationDeps, reporter: SessionUser, input: ReportInput): Promise<ReportCreated> {
  const store = targetStore(input.targetType);
  const targetId = parseId(input.targetId, () => noSuchItem(input.targetType));
  if (!(await store.findVisible(deps.db, targetId, reporter.id))) throw noSuchItem(input.targetType);
  try {
    const id = await insertReport(deps.db, {
      reporterId: reporter.id,
      targetType: input.targetType,
      targetId,
      reason: input.reason,
      details: input.details ?? null,
    });
    return { id, message: messages.reportSent };
  } catch (err) {
    if (brokenConstraint(err, 'unique') === ONE_OPEN_REPORT_INDEX) {
      throw conflict(input.targetType === 'blog' ? messages.alreadyReportedBlog : messages.alreadyReportedComment, 'ALREADY_REPORTED');
    }
    throw err;
  }
}

function toTarget(type: ReportTargetType, row: TargetRow): ModerationTarget {
  return {
    type,
    id: row.id,
    blogId: row.blog_id,
    title: row.title,
    excerpt: row.excerpt ?? row.body.slice(0, 200),
    authorId: row.author_id,
    authorEmail: row.author_email,
    authorSuspended: row.author_suspended_at !== null,
    hidden: row.hidden_at !== null,
  };
}

const iso = (value: Date | string) => new Date(value).toISOString();

/** Everything the moderators' page shows: open reports with their items, hidden items, suspended accounts, the log. */
export async function getOverview(deps: ModerationDeps): Promise<ModerationOverview> {
  const { db } = deps;
  const [reports, suspended, log] = await Promise.all([
    selectOpenReports(db, MODERATION_LIST_LIMIT),
    selectSuspendedUsers(db, MODERATION_LIST_LIMIT),
    selectLog(db, MODERATION_LOG_LIMIT),
  ]);
  const targets = new Map<string, ModerationTarget>();
  const hidden: ModerationTarget[] = [];
  for (const [type, store] of Object.entries(TARGETS) as [ReportTargetType, (typeof TARGETS)[ReportTargetType]][]) {
    if (!store) continue;
    const ids = [...new Set(reports.filter((report) => report.target_type === type).map((report) => report.target_id))];
    for (const row of await store.findMany(db, ids)) targets.set(`${type}:${row.id}`, toTarget(type, row));
    hidden.push(...(await store.listHidden(db, MODERATION_LIST_LIMIT)).map((row) => toTarget(type, row)));
  }
  return {
    // A report whose item was deleted since has nothing left to act on.
    reports: reports.flatMap((report) => {
      const target = targets.get(`${report.target_type}:${report.target_id}`);
      return target
        ? [{ id: report.id, reason: report.reason, details: report.details, reporterEmail: report.reporter_email, createdAt: iso(report.created_at), target }]
        : [];
    }),
    hidden,
    suspended: suspended.map((user) => ({ id: user.id, email: user.email, suspendedAt: iso(user.suspended_at!) })),
    log: log.map((entry) => ({
      id: entry.id,
      moderatorEmail: entry.moderator_email,
      action: entry.action,
      targetType: entry.target_type,
      targetId: entry.target_id,
      targetLabel: entry.target_label,
      reason: entry.reason,
      createdAt: iso(entry.created_at),
    })),
  };
}

/** The cache tags a performed action changed (see docs/response-cache.md). */
export type ChangedTags = string[];

/**
 * Performs one moderator action and writes it to the log in the same transaction. Answers the
 * response-cache tags it changed: the lists and the blog for content, everything for an account
 * (its blogs and comments appear or vanish everywhere).
 */
export async function performAction(
  deps: ModerationDeps,
  moderator: SessionUser,
  input: ModerationAction,
  /** Also written in the action's transaction: /admin's audit entry for a suspension (issue 44). */
  alsoInTransaction?: (trx: Kysely<Database>) => Promise<void>,
): Promise<ChangedTags> {
  const by = { moderator_id: moderator.id, moderator_email: moderator.email };
  const reportId = input.reportId === undefined ? null : parseId(input.reportId, () => notFound('This report does not exist.'));

  switch (input.action) {
    case 'hide':
    case 'restore': {
      const store = targetStore(input.targetType);
      const targetId = parseId(input.targetId, () => noSuchItem(input.targetType));
      const blogId = await deps.db.transaction().execute(async (trx) => {
        const [before] = input.targetType === 'blog' ? await blogStatesBefore(trx, { blogIds: [targetId] }) : [];
        const changed = await store.setHidden(trx, targetId, input.action === 'hide' ? moderator.id : null);
        if (changed === undefined) throw noSuchItem(input.targetType);
        if (input.action === 'hide') await closeReports(trx, { targetType: input.targetType, targetIds: [targetId] }, 'resolved', moderator.id);
        // A hidden blog is unpublished to its readers (a Delete to followers); restored, published again.
        if (before) await recordBlogChange(trx, { blogId: targetId, before, origin: 'moderator' });
        await insertLogEntry(trx, {
          ...by,
          action: input.action,
          target_type: input.targetType,
          target_id: targetId,
          target_label: changed.label,
          reason: input.reason ?? (await reportReason(trx, reportId)),
          report_id: reportId,
        });
        return changed.blogId;
      });
      // Lists show comment counts; the blog's page shows its comments.
      return [LISTS_TAG, blogTag(blogId)];
    }
    case 'suspend':
    case 'unsuspend': {
      const user = await findUser(deps.db, input.userId);
      if (!user) throw notFound('This account does not exist.');
      const suspend = input.action === 'suspend';
      if (suspend && isModerator(deps.config, user)) {
        throw badRequest('A moderator cannot be suspended. Remove the address from MODERATOR_EMAILS first.', 'MODERATOR');
      }
      await deps.db.transaction().execute(async (trx) => {
        if (!(await lockAccount(trx, user.id))) throw notFound('This account does not exist.');
        const before = await blogStatesBefore(trx, { authorId: user.id });
        const email = await setSuspended(trx, user.id, suspend);
        if (email === undefined) throw notFound('This account does not exist.');
        // Every public blog of theirs is unpublished (a Delete to each follower), and published again on restore.
        await recordBlogChanges(trx, { before, origin: 'suspension' });
        if (suspend) {
          for (const store of Object.values(TARGETS)) await store?.closeReportsByAuthor(trx, user.id, moderator.id);
        }
        await insertLogEntry(trx, {
          ...by,
          action: input.action,
          target_type: 'user',
          target_id: user.id,
          target_label: email,
          reason: input.reason ?? (await reportReason(trx, reportId)),
          report_id: reportId,
        });
        await alsoInTransaction?.(trx);
      });
      return [EVERYTHING_TAG];
    }
    case 'dismiss': {
      const id = parseId(input.reportId, () => notFound('This report does not exist.'));
      await deps.db.transaction().execute(async (trx) => {
        const report = await findOpenReport(trx, id);
        if (!report) throw notFound('This report is not open any more.');
        const [target] = (await TARGETS[report.target_type]?.findMany(trx, [report.target_id])) ?? [];
        await closeReports(trx, { reportId: id }, 'dismissed', moderator.id);
        await insertLogEntry(trx, {
          ...by,
          action: 'dismiss',
          target_type: report.target_type,
          target_id: report.target_id,
          target_label: target?.title ?? '(deleted)',
          reason: input.reason ?? null,
          report_id: id,
        });
      });
      // Nothing public changed.
      return [];
    }
  }
}

/** Without a reason of the moderator's own, the log keeps the report's. */
async function reportReason(trx: Transaction<Database>, reportId: string | null): Promise<string | null> {
  if (reportId === null) return null;
  const row = await trx.selectFrom('reports').select(['reason', 'details']).where('id', '=', reportId).executeTakeFirst();
  if (!row) return null;
  const label = REPORT_REASON_LABELS[row.reason as ReportReason];
  return row.details ? `${label}: ${row.details}` : label;
}
