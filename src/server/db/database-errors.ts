/**
 * Errors that mean "the database cannot be reached right now" (a restart, a failover, a
 * network cut), as opposed to a bad query: the request may succeed if tried again.
 */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
  // PostgreSQL: admin_shutdown, crash_shutdown, cannot_connect_now, too_many_connections.
  '57P01',
  '57P02',
  '57P03',
  '53300',
]);

export function isDatabaseUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (UNAVAILABLE_CODES.has(code) || code.startsWith('08'))) return true;
  // pg reports a connection dropped mid-query, or a pool that cannot connect in time, in words only.
  return /Connection terminated|connection timeout|Client has encountered a connection error/i.test(error.message);
}

/** SQLSTATEs a caller turns into an answer of its own (Postgres and PGlite report the same). */
const SQLSTATE = { unique: '23505', foreignKey: '23503', queryCanceled: '57014' } as const;

/**
 * The constraint a statement broke, when it failed for that kind of reason (a duplicate for
 * `unique`, a row gone for `foreignKey`), so the caller can say which: undefined otherwise.
 */
export function brokenConstraint(error: unknown, kind: 'unique' | 'foreignKey'): string | undefined {
  const pgError = error as { code?: unknown; constraint?: unknown } | null;
  if (pgError?.code !== SQLSTATE[kind]) return undefined;
  return typeof pgError.constraint === 'string' ? pgError.constraint : '';
}

/** The statement ran past its `statement_timeout`. */
export function isStatementTimeout(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === SQLSTATE.queryCanceled;
}
