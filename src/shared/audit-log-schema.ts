import { z } from 'zod';

/** One admin action (issue 44): who, what, to what, when, and the subject before and after. */
export const auditEntrySchema = z.object({
  id: z.string(),
  /** The account's address as it was; null for the command line. */
  actor: z.string().nullable(),
  action: z.string(),
  subject: z.string().nullable(),
  before: z.unknown(),
  after: z.unknown(),
  createdAt: z.string(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

export const AUDIT_PAGE_SIZE = 20;

/** `GET /api/admin/audit-log?before=<id>`: newest first; `nextBefore` asks for the older page (null: none). */
export const auditLogQuerySchema = z.object({
  before: z
    .string()
    .regex(/^\d{1,18}$/, 'Not a page of the audit log.')
    .optional(),
});

export const auditLogPageSchema = z.object({ items: z.array(auditEntrySchema), nextBefore: z.string().nullable() });
export type AuditLogPage = z.infer<typeof auditLogPageSchema>;
