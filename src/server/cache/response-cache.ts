import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import { strongEtag } from '../http/conditional-get.js';
import { TaggedLru } from './tagged-lru.js';
import { varyOf } from '../http/negotiated-pages.js';

/** What a cached answer needs to be sent again: its bytes, their type, and how long others may keep it. */
export interface CachedResponse {
  body: Buffer;
  contentType: string;
  cacheControl?: string;
  /** The answer's `Last-Modified` as sent (feeds and sitemaps send one), so a hit revalidates with `If-Modified-Since` too. */
  lastModified?: string;
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
 * first), tagged and invalidated as `TaggedLru` says: a write drops exactly what it changed, and an
 * answer computed while a write landed is not stored.
 */
export class ResponseCache {
  private readonly entries: TaggedLru<CachedResponse>;
  /** Cacheable requests answered from memory, and those that were not (read by the metrics). */
  readonly counts = { hits: 0, misses: 0 };

  /** `securityHeaders` go out on every hit, like on every other answer. */
  constructor(maxBytes: number, readonly securityHeaders: Record<string, string> = {}) {
    this.entries = new TaggedLru<CachedResponse>({
      maxSize: maxBytes,
      sizeOf: (entry, key) => key.length + entry.body.length + entry.br.length + entry.gzip.length + 256,
    });
  }

  get generation(): number {
    return this.entries.generation;
  }

  get(key: string): CachedResponse | undefined {
    return this.entries.get(key);
  }

  /**
   * Stores an answer, unless something was invalidated since `startedAt` (the request's
   * generation); with `ttlMs`, only for that long.
   */
  set(
    key: string,
    startedAt: number,
    entry: Omit<CachedResponse, 'etag' | 'br' | 'gzip' | 'hitHeaders' | 'notModifiedHeaders'>,
    ttlMs?: number,
  ): CachedResponse | undefined {
    if (startedAt !== this.entries.generation) return undefined;
    const etag = strongEtag(entry.body);
    const br = brotliCompressSync(entry.body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 5 } });
    const gzip = gzipSync(entry.body, { level: 6 });
    const common = [
      ...Object.entries(this.securityHeaders).flat(),
      'etag', etag,
      'x-cache', 'hit',
      'vary', varyOf(key, 'accept-encoding, cookie'),
      ...(entry.cacheControl ? ['cache-control', entry.cacheControl] : []),
      ...(entry.lastModified ? ['last-modified', entry.lastModified] : []),
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
    return this.entries.set(key, startedAt, stored, entry.tags, ttlMs) ? stored : undefined;
  }

  /** Drops every entry carrying one of the tags; `*` drops everything. */
  invalidate(tags: readonly string[]): void {
    this.entries.invalidate(tags);
  }

  /** The body in the encoding asked for. */
  static encoded(entry: CachedResponse, encoding: Encoding): Buffer {
    return encoding === 'identity' ? entry.body : entry[encoding];
  }

  get size(): number {
    return this.entries.size;
  }
}
