import { z } from 'zod';
import { messages } from './messages.js';

export const REPORT_REASONS = ['spam', 'harassment', 'illegal', 'other'] as const;
export const reportReasonSchema = z.enum(REPORT_REASONS, { message: messages.chooseReportReason });
export type ReportReason = z.infer<typeof reportReasonSchema>;

/** The words the report dialog and the moderators' page show for each reason. */
export const REPORT_REASON_LABELS: Record<ReportReason, string> = {
  spam: 'Spam',
  harassment: 'Harassment',
  illegal: 'Illegal content',
  other: 'Other',
};

export const REPORT_TARGET_TYPES = ['blog', 'comment'] as const;
export const reportTargetTypeSchema = z.enum(REPORT_TARGET_TYPES);
export type ReportTargetType = z.infer<typeof reportTargetTypeSchema>;

export const REPORT_DETAILS_MAX_LENGTH = 1000;
export const MODERATION_REASON_MAX_LENGTH = 500;

/** `POST /api/reports`: any signed-in reader reports a blog or a comment. */
export const reportInputSchema = z.object({
  targetType: reportTargetTypeSchema,
  targetId: z.string().max(100),
  reason: reportReasonSchema,
  details: z
    .string()
    .trim()
    .max(REPORT_DETAILS_MAX_LENGTH, `Keep the details under ${REPORT_DETAILS_MAX_LENGTH} characters.`)
    .optional()
    .transform((value) => value || undefined),
});
export type ReportInput = z.output<typeof reportInputSchema>;
export type ReportRequest = z.input<typeof reportInputSchema>;

export const reportCreatedSchema = z.object({ id: z.string(), message: z.string() });
export type ReportCreated = z.infer<typeof reportCreatedSchema>;

const moderatorReason = z
  .string()
  .trim()
  .max(MODERATION_REASON_MAX_LENGTH, `Keep the reason under ${MODERATION_REASON_MAX_LENGTH} characters.`)
  .optional()
  .transform((value) => value || undefined);

/**
 * `POST /api/moderation/actions`: one moderator action. Hide and restore act on content, suspend
 * and unsuspend on an account, dismiss on a report. A `reportId` ties the action to the report
 * it answers (hiding closes every open report on the item anyway).
 */
export const moderationActionSchema = z.discriminatedUnion('action', [
  z.object({
    action: z.enum(['hide', 'restore']),
    targetType: reportTargetTypeSchema,
    targetId: z.string().max(100),
    reason: moderatorReason,
    reportId: z.string().max(100).optional(),
  }),
  z.object({
    action: z.enum(['suspend', 'unsuspend']),
    userId: z.string().max(200),
    reason: moderatorReason,
    reportId: z.string().max(100).optional(),
  }),
  z.object({ action: z.literal('dismiss'), reportId: z.string().max(100), reason: moderatorReason }),
]);
export type ModerationAction = z.output<typeof moderationActionSchema>;
/** What the web app sends. */
export type ModerationActionInput = z.input<typeof moderationActionSchema>;
export type ModerationActionName = ModerationAction['action'];

/** What a report or a hidden item is about, as the moderators' page shows it. */
export const moderationTargetSchema = z.object({
  type: reportTargetTypeSchema,
  id: z.string(),
  /** The blog's id (a comment's blog), for the link to it. */
  blogId: z.string(),
  title: z.string(),
  excerpt: z.string(),
  /** Null for a reply from the fediverse (no account here to suspend). */
  authorId: z.string().nullable(),
  authorEmail: z.string(),
  authorSuspended: z.boolean(),
  hidden: z.boolean(),
});
export type ModerationTarget = z.infer<typeof moderationTargetSchema>;

export const openReportSchema = z.object({
  id: z.string(),
  reason: reportReasonSchema,
  details: z.string().nullable(),
  reporterEmail: z.string(),
  createdAt: z.string(),
  target: moderationTargetSchema,
});
export type OpenReport = z.infer<typeof openReportSchema>;

export const moderationLogEntrySchema = z.object({
  id: z.string(),
  moderatorEmail: z.string(),
  action: z.enum(['hide', 'restore', 'dismiss', 'suspend', 'unsuspend']),
  targetType: z.enum(['blog', 'comment', 'user']),
  targetId: z.string(),
  targetLabel: z.string(),
  reason: z.string().nullable(),
  createdAt: z.string(),
});
export type ModerationLogEntry = z.infer<typeof moderationLogEntrySchema>;

export const suspendedAccountSchema = z.object({ id: z.string(), email: z.string(), suspendedAt: z.string() });
export type SuspendedAccount = z.infer<typeof suspendedAccountSchema>;

/** `GET /api/moderation`: everything the moderators' page shows. */
export const moderationOverviewSchema = z.object({
  reports: z.array(openReportSchema),
  hidden: z.array(moderationTargetSchema),
  suspended: z.array(suspendedAccountSchema),
  log: z.array(moderationLogEntrySchema),
});
export type ModerationOverview = z.infer<typeof moderationOverviewSchema>;

/** `GET /api/moderation/access`: 200 for moderators only (404 for everyone else). */
export const moderatorAccessSchema = z.object({ moderator: z.literal(true) });
