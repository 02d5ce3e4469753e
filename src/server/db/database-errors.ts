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
