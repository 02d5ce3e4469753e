import { z } from 'zod';

/**
 * The kinds of admin action, by the prefix of their `action` (`role.change` is a 'people' action):
 * the audit log's 'Kind' filter. A new `area.verb` joins a kind here, or shows under 'All' only.
 */
export const AUDIT_KINDS = {
  people: { label: 'People', prefixes: ['role', 'account', 'invitation'] },
  ownership: { label: 'Ownership', prefixes: ['ownership'] },
  settings: { label: 'Site settings', prefixes: ['settings'] },
  pages: { label: 'Pages', prefixes: ['page'] },
  webhooks: { label: 'Webhooks', prefixes: ['webhook'] },
  integrations: { label: 'Integrations', prefixes: ['integration'] },
  subscribers: { label: 'Subscribers', prefixes: ['subscriber', 'subscribers', 'subscription'] },
  blogs: { label: 'Blogs', prefixes: ['blog'] },
} as const satisfies Record<string, { label: string; prefixes: readonly string[] }>;
export type AuditKind = keyof typeof AUDIT_KINDS;
export const auditKindSchema = z.enum(Object.keys(AUDIT_KINDS) as [AuditKind, ...AuditKind[]], { message: 'Not a kind of the audit log.' });

/** The kind an action belongs to, or null for one no kind names. */
export function auditKindOf(action: string): AuditKind | null {
  const prefix = action.split('.')[0]!;
  const found = Object.entries(AUDIT_KINDS).find(([, kind]) => (kind.prefixes as readonly string[]).includes(prefix));
  return found ? (found[0] as AuditKind) : null;
}

/** One field that an action changed, in words: `field: before → after` (either side null: none). */
export const auditChangeSchema = z.object({ field: z.string(), before: z.string().nullable(), after: z.string().nullable() });
export type AuditChange = z.infer<typeof auditChangeSchema>;

/** One admin action (issue 44): who, what, to what, when, and the subject before and after. */
export const auditEntrySchema = z.object({
  id: z.string(),
  /** The account's address as it was; null for the command line. */
  actor: z.string().nullable(),
  /** The account's name as it is now (null: the command line, or an account since deleted). */
  actorName: z.string().nullable(),
  action: z.string(),
  kind: auditKindSchema.nullable(),
  /** As recorded: an account's e-mail, a webhook's or a blog's id, a page's address, `site`. */
  subject: z.string().nullable(),
  /** The subject in words (issue 59): 'Maya Harbour <maya@…>', a blog's title, 'post.published → hooks.example'; never a bare id. */
  subjectLabel: z.string().nullable(),
  /** The fields that changed, one per line, in the order the states list them. */
  changes: z.array(auditChangeSchema),
  before: z.unknown(),
  after: z.unknown(),
  createdAt: z.string(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

export const AUDIT_PAGE_SIZE = 20;

/** `GET /api/admin/audit-log?before=<id>&kind=<kind>`: newest first; `nextBefore` asks for the older page (null: none). */
export const auditLogQuerySchema = z.object({
  before: z
    .string()
    .regex(/^\d{1,18}$/, 'Not a page of the audit log.')
    .optional(),
  kind: auditKindSchema.optional(),
});
export type AuditLogQuery = z.infer<typeof auditLogQuerySchema>;

export const auditLogPageSchema = z.object({ items: z.array(auditEntrySchema), nextBefore: z.string().nullable() });
export type AuditLogPage = z.infer<typeof auditLogPageSchema>;
