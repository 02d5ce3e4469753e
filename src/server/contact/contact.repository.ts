import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

export async function insertContactMessage(
  db: Kysely<Database>,
  row: { email: string; message: string; clientIp: string | null },
): Promise<{ id: string; created_at: Date }> {
  return db
    .insertInto('contact_messages')
    .values({ email: row.email, message: row.message, client_ip: row.clientIp })
    .returning(['id', 'created_at'])
    .executeTakeFirstOrThrow();
}

export async function markContactMessageForwarded(db: Kysely<Database>, id: string): Promise<void> {
  await db.updateTable('contact_messages').set({ forwarded_at: new Date() }).where('id', '=', id).execute();
}

export async function findContactMessage(db: Kysely<Database>, id: string) {
  return db.selectFrom('contact_messages').select(['id', 'email', 'message', 'created_at', 'forwarded_at']).where('id', '=', id).executeTakeFirst();
}
