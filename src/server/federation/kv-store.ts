import type { KvKey, KvStore, KvStoreListEntry, KvStoreSetOptions } from '@fedify/fedify';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

/**
 * Fedify's key-value store (caches of remote documents and keys, idempotence of inbox activities)
 * on `federation_kv`. A key's parts are joined with a character that cannot occur in them
 * (U+001F), so a prefix of parts is a prefix of text. An expired row reads as absent, and is
 * removed when it is next read or listed.
 */
const SEPARATOR = '\u001f';

const joinKey = (key: KvKey): string => key.join(SEPARATOR);
const splitKey = (key: string): KvKey => key.split(SEPARATOR) as unknown as KvKey;

function expiresAt(options?: KvStoreSetOptions): Date | null {
  if (!options?.ttl) return null;
  return new Date(Date.now() + options.ttl.total('millisecond'));
}

const live = sql<boolean>`(expires_at is null or expires_at > now())`;

export function createKvStore(db: Kysely<Database>): KvStore {
  return {
    async get<T = unknown>(key: KvKey): Promise<T | undefined> {
      const row = await db.selectFrom('federation_kv').select(['value']).where('key', '=', joinKey(key)).where(live).executeTakeFirst();
      return row === undefined ? undefined : (row.value as T);
    },
    async set(key, value, options) {
      const values = { key: joinKey(key), value: JSON.stringify(value), expires_at: expiresAt(options) };
      await db
        .insertInto('federation_kv')
        .values(values)
        .onConflict((conflict) => conflict.column('key').doUpdateSet({ value: values.value, expires_at: values.expires_at }))
        .execute();
    },
    async delete(key) {
      await db.deleteFrom('federation_kv').where('key', '=', joinKey(key)).execute();
    },
    async cas(key, expectedValue, newValue, options) {
      const joined = joinKey(key);
      return db.transaction().execute(async (trx) => {
        const row = await trx.selectFrom('federation_kv').select(['value']).where('key', '=', joined).where(live).forUpdate().executeTakeFirst();
        const current = row?.value;
        if (JSON.stringify(current) !== JSON.stringify(expectedValue)) return false;
        if (newValue === undefined) {
          await trx.deleteFrom('federation_kv').where('key', '=', joined).execute();
          return true;
        }
        const values = { key: joined, value: JSON.stringify(newValue), expires_at: expiresAt(options) };
        await trx
          .insertInto('federation_kv')
          .values(values)
          .onConflict((conflict) => conflict.column('key').doUpdateSet({ value: values.value, expires_at: values.expires_at }))
          .execute();
        return true;
      });
    },
    async *list(prefix?: KvKey): AsyncIterable<KvStoreListEntry> {
      let query = db.selectFrom('federation_kv').select(['key', 'value']).where(live).orderBy('key');
      if (prefix) {
        const joined = joinKey(prefix);
        query = query.where((eb) => eb.or([eb('key', '=', joined), eb(sql<string>`left(key, ${joined.length + 1})`, '=', joined + SEPARATOR)]));
      }
      for (const row of await query.execute()) yield { key: splitKey(row.key), value: row.value };
    },
  };
}

/** Removes expired rows (the queue-cleanup's hourly turn could call it; reads already skip them). */
export async function removeExpiredKv(db: Kysely<Database>): Promise<number> {
  const result = await db.deleteFrom('federation_kv').where('expires_at', '<', new Date()).executeTakeFirst();
  return Number(result.numDeletedRows);
}
