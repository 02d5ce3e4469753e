import { type Kysely, sql } from 'kysely';

/**
 * When each session was last used (Settings lists the account's sessions with it). Written by the
 * server at most every few minutes per session, not on every request; null until then (the list
 * falls back to when the session began).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table session add column last_seen_at timestamptz`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table session drop column last_seen_at`.execute(db);
}
