import { LRUCache } from 'lru-cache';

interface Tagged<V> {
  value: V;
  tags: readonly string[];
}

/** How big the store may grow: a number of entries, or a total size that `sizeOf` measures. */
export type TaggedLruBound<V> = { maxEntries: number } | { maxSize: number; sizeOf: (value: V, key: string) => number };

/**
 * Values kept in memory by key, bounded (the least recently used goes first), each carrying tags
 * (`lists`, `blog:{id}`), so a write drops exactly what it changed. `generation` moves on every
 * invalidation: a value computed while a write landed is not stored, so nothing stale can outlive
 * the write that made it stale.
 */
export class TaggedLru<V extends object> {
  private readonly entries: LRUCache<string, Tagged<V>>;
  private readonly byTag = new Map<string, Set<string>>();
  private currentGeneration = 0;

  constructor(bound: TaggedLruBound<V>) {
    const dispose = (entry: Tagged<V>, key: string) => this.untag(key, entry.tags);
    this.entries =
      'maxEntries' in bound
        ? new LRUCache({ max: bound.maxEntries, dispose })
        : new LRUCache({ maxSize: bound.maxSize, sizeCalculation: (entry, key) => bound.sizeOf(entry.value, key), dispose });
  }

  get generation(): number {
    return this.currentGeneration;
  }

  get(key: string): V | undefined {
    return this.entries.get(key)?.value;
  }

  /**
   * Stores a value, unless something was invalidated since `startedAt` (a generation read before
   * computing it); with `ttlMs`, only for that long.
   */
  set(key: string, startedAt: number, value: V, tags: readonly string[], ttlMs?: number): boolean {
    if (startedAt !== this.currentGeneration) return false;
    // Replacing an entry disposes of the old one (and its tags) first.
    this.entries.set(key, { value, tags }, ttlMs === undefined ? undefined : { ttl: Math.max(1, Math.ceil(ttlMs)) });
    for (const tag of tags) {
      let keys = this.byTag.get(tag);
      if (!keys) this.byTag.set(tag, (keys = new Set()));
      keys.add(key);
    }
    return true;
  }

  /** Drops every entry carrying one of the tags; `*` drops everything. */
  invalidate(tags: readonly string[]): void {
    this.currentGeneration += 1;
    if (tags.includes('*')) {
      this.entries.clear();
      this.byTag.clear();
      return;
    }
    for (const tag of tags) {
      for (const key of [...(this.byTag.get(tag) ?? [])]) this.entries.delete(key);
    }
  }

  /** The total size (`maxSize` bound) or number of entries (`maxEntries` bound). */
  get size(): number {
    return this.entries.maxSize ? this.entries.calculatedSize : this.entries.size;
  }

  private untag(key: string, tags: readonly string[]) {
    for (const tag of tags) {
      const keys = this.byTag.get(tag);
      keys?.delete(key);
      if (keys?.size === 0) this.byTag.delete(tag);
    }
  }
}
