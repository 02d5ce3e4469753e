import { createAccessControl } from 'better-auth/plugins/access';
import type { Role } from '../../shared/role-schema.js';
import type { Config } from '../config.js';

/**
 * What each role may do (issue 44), as Better Auth's access-control helper states it: one
 * statement of resources and their actions, one set per role. The server asks `can` (through
 * `core/access.ts`) on every request that needs more than being signed in; `roles.test.ts`
 * checks the whole table of role × action.
 */
const statement = {
  /** The site's settings, integrations (webhooks) and audit log: `/admin`. */
  site: ['manage'],
  /** Accounts: list, give a role, suspend, delete, invite. */
  people: ['manage'],
  /** Handing the site to another account. */
  ownership: ['transfer'],
  /** Blogs: write drafts; submit one for review; publish one's own; edit, publish, unpublish or delete anyone's. */
  blog: ['draft', 'submit', 'publish', 'editAny', 'deleteAny'],
  /** Comments and reports: hide, restore, suspend (the moderation page). */
  moderation: ['moderate'],
  /** The AI Blog Generator: the roles that write (a paid provider costs money per blog; issue 56). */
  ai: ['generate'],
  /** Comment, vote, subscribe: every signed-in account. */
  reader: ['comment', 'vote', 'subscribe'],
} as const;

const access = createAccessControl(statement);
const reader = { reader: ['comment', 'vote', 'subscribe'] } as const;

const ROLE_RULES = {
  owner: access.newRole({ ...statement }),
  administrator: access.newRole({ ...statement, ownership: [] }),
  editor: access.newRole({ ...reader, blog: ['draft', 'submit', 'publish', 'editAny'], moderation: ['moderate'], ai: ['generate'] }),
  author: access.newRole({ ...reader, blog: ['draft', 'publish'], ai: ['generate'] }),
  contributor: access.newRole({ ...reader, blog: ['draft', 'submit'], ai: ['generate'] }),
  reader: access.newRole({ ...reader }),
} satisfies Record<Role, unknown>;

type Statement = typeof statement;
/** One action on one resource, e.g. `{ blog: 'publish' }`. */
export type Permission = { [R in keyof Statement]: { [K in R]: Statement[R][number] } }[keyof Statement];

/** Whether the role may do the action. */
export function can(role: Role, permission: Permission): boolean {
  const [resource, action] = Object.entries(permission)[0]!;
  return ROLE_RULES[role].authorize({ [resource]: [action] }).success;
}

/** Every `resource:action` the role may do, e.g. `blog:publish`. */
export function permissionsOf(role: Role): string[] {
  return Object.entries(statement).flatMap(([resource, actions]) =>
    actions.filter((action) => can(role, { [resource]: action } as Permission)).map((action) => `${resource}:${action}`),
  );
}

/** Editors and above may moderate; `MODERATOR_EMAILS` makes an account at least an editor, as before roles. */
const AT_LEAST_EDITOR: readonly Role[] = ['owner', 'administrator', 'editor'];

/** The role an account acts with: its own, raised to editor when `MODERATOR_EMAILS` names it. */
export function effectiveRole(config: Config, user: { email: string; role: Role }): Role {
  if (AT_LEAST_EDITOR.includes(user.role)) return user.role;
  return config.moderatorEmails.includes(user.email.toLowerCase()) ? 'editor' : user.role;
}
