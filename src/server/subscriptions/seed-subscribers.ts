import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

/** `count` confirmed subscribers of an author (`subscriber-<i>@example.test`), in one statement: tests and the bench. */
export async function seedSubscribers(db: Kysely<Database>, authorId: string, count: number): Promise<void> {
  await sql`
    insert into subscriptions (email, author_id, confirmed_at)
    select 'subscriber-' || i || '@example.test', ${authorId}, now() from generate_series(1, ${count}::integer) as i`.execute(db);
}

/** An author account written straight into the database (no sign-up), for seeding. */
export async function seedAuthor(db: Kysely<Database>, email: string): Promise<string> {
  const id = `seed-${email.replace(/[^a-z0-9]/gi, '-')}`;
  await db.insertInto('user').values({ id, name: email, email, emailVerified: true, image: null, createdAt: new Date(), updatedAt: new Date() }).execute();
  return id;
}
