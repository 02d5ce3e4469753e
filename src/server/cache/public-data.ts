import type { FastifyRequest } from 'fastify';
import type { CacheInvalidation, WriteNotice } from './cache-invalidation.js';
import { markNoticeSent } from './response-cache.plugin.js';
import { declaredChanges } from './route-caching.js';
import { TaggedLru } from './tagged-lru.js';

/**
 * What anonymous readers see, kept for everyone's answers: the public part of a list page stays
 * in memory and each viewer's own part (their votes) is read fresh, so a signed-in reader's
 * answer needs one small query instead of the list's. Dropped by the same writes, tags and
 * notices as the response cache (`docs/response-cache.md`).
 */
export interface PublicData {
  /**
   * The value under `key`, computed by `load` when absent and kept until a write names one of
   * `tags`. A value computed while a write landed is not kept. The value is shared: never change it.
   */
  remember<T extends object>(key: string, tags: readonly string[], load: () => Promise<T>): Promise<T>;
  /**
   * The cache notice this write request sends from its own statement (`pg_notify`, delivered at
   * its commit), so its answer does not send it again: one round trip fewer. Undefined: the
   * answer sends it as usual (no other process can listen, or the URL changes nothing cached).
   */
  writeNotice(request: FastifyRequest): WriteNotice | undefined;
}

/**
 * The store `createPublicData` keeps its values in, bounded in bytes (the memory budget's share);
 * its `invalidate` goes wherever the response cache's does.
 */
export function createPublicDataStore(maxBytes: number): TaggedLru<object> {
  // A value's size is counted as twice its JSON: strings of one-byte characters and the objects
  // around them take about that much of V8's heap (a page of ten cards: a few KB).
  return new TaggedLru<object>({ maxSize: Math.max(1, maxBytes), sizeOf: (value, key) => 2 * (key.length + jsonLength(value)) + 256 });
}

function jsonLength(value: object): number {
  try {
    return JSON.stringify(value).length;
  } catch {
    return 4096; // not JSON (a BigInt inside): counted as a large page
  }
}

/** With the response cache off, nothing is kept either. */
export const noPublicData: PublicData = {
  remember: (_key, _tags, load) => load(),
  writeNotice: () => undefined,
};

export function createPublicData(store: TaggedLru<object>, invalidation: CacheInvalidation): PublicData {
  return {
    async remember<T extends object>(key: string, tags: readonly string[], load: () => Promise<T>): Promise<T> {
      // While the notices' connection is down a write could go unheard: nothing is served from memory.
      if (!invalidation.reliable) return load();
      const kept = store.get(key);
      if (kept !== undefined) return kept as T;
      const startedAt = store.generation;
      const value = await load();
      store.set(key, startedAt, value, tags);
      return value;
    },
    writeNotice(request) {
      const tags = declaredChanges(request);
      const notice = tags && invalidation.noticeFor(tags);
      if (notice) markNoticeSent(request);
      return notice;
    },
  };
}
