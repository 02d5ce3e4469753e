import { z } from 'zod';
import { pageWithoutSizeSchemaOf } from './page-schema.js';
import { assignableRoleSchema, roleSchema } from './role-schema.js';

/** One account as /admin's People section lists it (issue 44). */
export const personSchema = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  role: roleSchema,
  joinedAt: z.string(),
  blogCount: z.number().int(),
  /** When one of its sessions last made a request; null if never (or not since sessions were watched). */
  lastSeenAt: z.string().nullable(),
  suspended: z.boolean(),
});
export type Person = z.infer<typeof personSchema>;

export const PEOPLE_PAGE_SIZE = 50;

export const peopleQuerySchema = z.object({
  search: z.string().trim().max(200).optional(),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
});

export const peoplePageSchema = pageWithoutSizeSchemaOf(personSchema);
export type PeoplePage = z.infer<typeof peoplePageSchema>;

export const roleChangeSchema = z.object({ role: assignableRoleSchema });

/** Deleting an account: its blogs go with it, or are given to another account (by e-mail). */
export const personDeletionSchema = z.discriminatedUnion('blogs', [
  z.object({ blogs: z.literal('remove') }),
  z.object({ blogs: z.literal('transfer'), transferTo: z.email({ message: 'Enter the e-mail address of the account to give the blogs to.' }) }),
]);
export type PersonDeletion = z.infer<typeof personDeletionSchema>;

export const suspensionSchema = z.object({ suspended: z.boolean(), reason: z.string().trim().max(500).optional() });

/** An invitation: 'Email address' and 'Role' on the form. */
export const invitationInputSchema = z.object({
  email: z.string().trim().toLowerCase().pipe(z.email({ message: 'Enter an email address.' })),
  role: assignableRoleSchema,
});
export type InvitationInput = z.infer<typeof invitationInputSchema>;

export const invitationSchema = z.object({ id: z.string(), email: z.string(), role: assignableRoleSchema, createdAt: z.string(), expiresAt: z.string() });
export type Invitation = z.infer<typeof invitationSchema>;
export const invitationListSchema = z.object({ items: z.array(invitationSchema) });

/** The invitation page's button: the mailed token and the password of the new account. */
export const invitationAcceptSchema = z.object({ token: z.string().min(1).max(200), password: z.string() });
export const invitationAcceptedSchema = z.object({ email: z.string() });

export const ownershipTransferSchema = z.object({ email: z.string().trim().toLowerCase().pipe(z.email({ message: 'Enter an email address.' })) });

/** Invitation links work for seven days. */
export const INVITATION_TTL_DAYS = 7;
