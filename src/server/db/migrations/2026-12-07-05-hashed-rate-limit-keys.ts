import { type Kysely, sql } from 'kysely';

/**
 * Rate-limit counters name nobody (issue 56): from this version on, `rate_limits` keeps a keyed
 * hash of the reader's address, e-mail address or account id in each key, and Better Auth's
 * per-address counters move there too (`rate-limit/rate-limit.ts`). The counters written before,
 * with the address in the key, go: they are minutes long, so a limit starts afresh at most once.
 * The AI generator's running leases (`ai:running:…`, an account id and no count) stay.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`delete from rate_limits where key not like 'ai:running:%'`.execute(db);
  await sql`delete from "rateLimit"`.execute(db);
}

/** Nothing to bring back: the counters it deleted were short-lived. */
export async function down(): Promise<void> {}
