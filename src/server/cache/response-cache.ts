import { createHash } from 'node:crypto';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import { LRUCache } from 'lru-cache';

/** What a cached answer needs to be sent again: its bytes, their type, and how long others may keep it. */
export interface CachedResponse {
  body: Buffer;
  contentType: string;
  cacheControl?: string;
  /** A strong validator: the same bytes give the same tag, in every process. */
  etag: string;
  /** What a write must invalidate for this entry to go: `lists`, `blog:{id}`. */
  tags: readonly string[];
  /** Compressed copies, made once when stored. */
  br: Buffer;
  gzip: Buffer;
  /**
   * A hit's whole header block for each encoding, and a 304's, as flat `[name, value, …]` lists
   * ready for `writeHead` (security headers included): nothing is built per hit.
   */
  hitHeaders: Record<Encoding, string[]>;
  notModifiedHeaders: string[];
}

export type Encoding = 'br' | 'gzip' | 'identity';

/**
 * Anonymous answers kept in memory, keyed by URL, bounded in bytes (least recently used goes
 * first). Each entry carries tags, so a write drops exactly what it changed. `generation` moves on
 * every invalidation: an answer computed while a write landed is not stored, so no stale answer
 * can outlive the write that made it stale.
 */
export class ResponseCache {
  private readonly entries: LRUCache<string, CachedResponse>;
  private readonly byTag = new Map<string, Set<string>>();
  private currentGeneration = 0;

  /** `securityHeaders` go out on every hit, like on every other answer. */
  constructor(maxBytes: number, readonly securityHeaders: Record<string, string> = {}) {
    this.entries = new LRUCache<string, CachedResponse>({
      maxSize: maxBytes,
      sizeCalculation: (entry, key) => key.length + entry.body.length + entry.br.length + entry.gzip.length + 256,
      dispose: (entry, key) => this.untag(key, entry.tags),
    });
  }

  get generation(): number {
    return this.currentGeneration;
  }

  get(key: string): CachedResponse | undefined {
    return this.entries.get(key);
  }

  /** Stores an answer, unless something was invalidated since `startedAt` (the request's generation). */
  set(key: string, startedAt: number, entry: Omit<CachedResponse, 'etag' | 'br' | 'gzip' | 'hitHeaders' | 'notModifiedHeaders'>): CachedResponse | undefined {
    if (startedAt !== this.currentGeneration) return undefined;
    const etag = strongEtag(entry.body);
    const br = brotliCompressSync(entry.body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 5 } });
    const gzip = gzipSync(entry.body, { level: 6 });
    const common = [
      ...Object.entries(this.securityHeaders).flat(),
      'etag', etag,
      'x-cache', 'hit',
      'vary', 'accept-encoding, cookie',
      ...(entry.cacheControl ? ['cache-control', entry.cacheControl] : []),
    ];
    const withBody = (encoding: Encoding, bytes: Buffer) => [
      ...common,
      'content-type', entry.contentType,
      ...(encoding === 'identity' ? [] : ['content-encoding', encoding]),
      'content-length', String(bytes.length),
    ];
    const stored: CachedResponse = {
      ...entry,
      etag,
      br,
      gzip,
      hitHeaders: { identity: withBody('identity', entry.body), br: withBody('br', br), gzip: withBody('gzip', gzip) },
      notModifiedHeaders: common,
    };
    this.entries.set(key, stored);
    for (const tag of entry.tags) {
      let keys = this.byTag.get(tag);
      if (!keys) this.byTag.set(tag, (keys = new Set()));
      keys.add(key);
    }
    return stored;
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

  /** The body in the encoding asked for. */
  static encoded(entry: CachedResponse, encoding: Encoding): Buffer {
    return encoding === 'identity' ? entry.body : entry[encoding];
  }

  get size(): number {
    return this.entries.calculatedSize;
  }

  private untag(key: string, tags: readonly string[]) {
    for (const tag of tags) {
      const keys = this.byTag.get(tag);
      keys?.delete(key);
      if (keys?.size === 0) this.byTag.delete(tag);
    }
  }
}

function strongEtag(body: Buffer): string {
  return `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
}
