import type { SelectQueryBuilder } from 'kysely';

/**
 * For `.$call()`: at most `limit` rows, locked for this transaction, skipping the rows another
 * transaction holds, so workers taking batches of the same rows never wait on each other.
 */
export function lockedBatch(limit: number) {
  return <DB, TB extends keyof DB, O>(query: SelectQueryBuilder<DB, TB, O>) => query.limit(limit).forUpdate().skipLocked();
}
