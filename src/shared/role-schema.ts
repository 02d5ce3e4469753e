import { z } from 'zod';

/**
 * The site's roles (issue 44), from the most to the least it may do. Owner: everything;
 * Administrator: everything but ownership; Editor: publish, edit and unpublish anyone's blogs and
 * moderate; Author: their own blogs, as the spec's signed-in user (the default); Contributor:
 * drafts only, submitted for review; Reader: comment, vote, subscribe, no writing.
 */
export const ROLES = ['owner', 'administrator', 'editor', 'author', 'contributor', 'reader'] as const;
export type Role = (typeof ROLES)[number];
export const roleSchema = z.enum(ROLES);

/** The roles an administrator may give (ownership is handed over, not given: `npm run owner`, or the owner's own transfer). */
export const ASSIGNABLE_ROLES = ['administrator', 'editor', 'author', 'contributor', 'reader'] as const satisfies readonly Role[];
export const assignableRoleSchema = z.enum(ASSIGNABLE_ROLES);

export const ROLE_LABELS: Record<Role, string> = {
  owner: 'Owner',
  administrator: 'Administrator',
  editor: 'Editor',
  author: 'Author',
  contributor: 'Contributor',
  reader: 'Reader',
};

/** `GET /api/access`: the signed-in account's role and what it may do (`resource:action`), for the menus; the server checks every request itself. */
export const accessSchema = z.object({
  role: roleSchema,
  /** The role it acts with (`MODERATOR_EMAILS` makes an account at least an editor). */
  effectiveRole: roleSchema,
  permissions: z.array(z.string()),
});
export type Access = z.infer<typeof accessSchema>;
