import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { uniqueEmail, type TestUser } from './test-users.js';

/**
 * Many signed-in users at once, written straight into the user and session tables. Signing up
 * through the API hashes a password per user (about 0.2 s each on two cores), too slow for the
 * hundred voters of the concurrency test and the benchmark's crowd. The cookie is Better Auth's session cookie: the token,
 * a dot, and its HMAC-SHA256 under the app's secret; a wrong format would make every vote 401.
 */
export async function createSignedInUsers(
  target: { db: Kysely<Database>; authSecret: string },
  count: number,
): Promise<TestUser[]> {
  const now = new Date();
  // Seven days, as Better Auth gives a new session: an older-looking one would be refreshed (a write) on every request.
  const expiresAt = new Date(now.getTime() + 7 * 24 * 60 * 60 * 1000);
  const users = Array.from({ length: count }, () => ({ id: randomUUID(), email: uniqueEmail('voter'), token: randomBytes(24).toString('base64url') }));
  await target.db
    .insertInto('user')
    .values(users.map((user) => ({ id: user.id, name: user.email, email: user.email, emailVerified: true, image: null, createdAt: now, updatedAt: now })))
    .execute();
  await target.db
    .insertInto('session')
    .values(
      users.map((user) => ({
        id: randomUUID(),
        token: user.token,
        userId: user.id,
        expiresAt,
        createdAt: now,
        updatedAt: now,
        ipAddress: null,
        userAgent: null,
      })),
    )
    .execute();
  return users.map((user) => {
    const signature = createHmac('sha256', target.authSecret).update(user.token).digest('base64');
    return { id: user.id, email: user.email, password: '', cookie: `better-auth.session_token=${encodeURIComponent(`${user.token}.${signature}`)}` };
  });
}
