import type { Role } from '../../shared/role-schema.js';

/** Who a request's session belongs to, as every feature sees them (`auth/session.ts` finds them). */
export interface SessionUser {
  id: string;
  email: string;
  /** The account's stored role; what it may do is `core/access.ts`'s to say (`MODERATOR_EMAILS` raises it). */
  role: Role;
}
