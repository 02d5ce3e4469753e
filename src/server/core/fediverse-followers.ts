import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

/** How many fediverse accounts follow each local author who has any (by account id), for /admin's Subscribers. */
export async function countFediverseFollowers(db: Kysely<Database>): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom('federation_followers')
    .select(['user_id', (eb) => eb.fn.countAll<string>().as('count')])
    .groupBy('user_id')
    .execute();
  return new Map(rows.map((row) => [row.user_id, Number(row.count)]));
}
