/** Who a request's session belongs to, as every feature sees them (`auth/session.ts` finds them). */
export interface SessionUser {
  id: string;
  email: string;
}
