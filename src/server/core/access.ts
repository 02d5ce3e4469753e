import type { Config } from '../config.js';
import type { SessionUser } from './session-user.js';
import { can, effectiveRole, type Permission } from './roles.js';

/** Whether the signed-in account may do the action; nobody signed in may do none. */
export function may(config: Config, user: SessionUser | null, permission: Permission): user is SessionUser {
  return user !== null && can(effectiveRole(config, user), permission);
}
