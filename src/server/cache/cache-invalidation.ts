import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { Client } from 'pg';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/schema.js';
import type { ResponseCache } from './response-cache.js';

const CHANNEL = 'response_cache';

/**
 * How a write reaches every app process's cache. Locally the entries go at once; on Postgres a
 * `NOTIFY` carries the tags to the other processes, each of which `LISTEN`s on its own connection.
 * While that connection is down a process can miss a write, so it neither serves nor stores until
 * it is back, and then starts from an empty cache.
 */
export interface CacheInvalidation {
  /** True while this process is sure to hear about every write. */
  readonly reliable: boolean;
  /**
   * Drops the entries here at once and tells the other processes. `alreadySent`: the write sent
   * `noticeFor(tags)` itself, from its own statement, so only this process's entries are left.
   */
  publish(tags: readonly string[], options?: { alreadySent?: boolean }): Promise<void>;
  /**
   * The notice for `tags` as a write can send it from its own statement
   * (`pg_notify(channel, payload)`), delivered when the write commits, one round trip fewer than
   * `publish`'s. Undefined when no other process can be listening (PGlite, or no cache).
   */
  noticeFor(tags: readonly string[]): WriteNotice | undefined;
  close(): Promise<void>;
}

export interface WriteNotice {
  channel: string;
  payload: string;
}

interface Notice {
  from: string;
  tags: string[];
}

/**
 * Other channels heard on the same connection (the session cache's `session_ended`), and what to
 * do when the connection was lost, since notices may have been missed meanwhile.
 */
export interface ExtraChannels {
  handlers: Record<string, (payload: string) => void>;
  /** Notices may have been missed: `false` while no connection listens, `true` once one does again. */
  reset(listening: boolean): void;
  /** PGlite: hears a channel in this process (`DatabaseHandle.listen`). */
  listenInProcess?: (channel: string, onNotice: (payload: string) => void) => Promise<void>;
}

export async function createCacheInvalidation(options: {
  /** Absent when the caches are off: the connection then serves only `channels`. */
  cache?: Pick<ResponseCache, 'invalidate'>;
  db: Kysely<Database>;
  /** Postgres: other processes may share the database. Unset (PGlite): this process is the only one. */
  databaseUrl?: string;
  channels?: ExtraChannels;
  log: FastifyBaseLogger;
}): Promise<CacheInvalidation> {
  const { db, databaseUrl, channels, log } = options;
  const cache = options.cache ?? { invalidate: () => {} };
  if (!databaseUrl) {
    for (const [channel, handler] of Object.entries(channels?.handlers ?? {})) {
      if (!channels?.listenInProcess) throw new Error(`no way to hear ${channel} on this database`);
      await channels.listenInProcess(channel, handler);
    }
    channels?.reset(true);
    return {
      reliable: true,
      publish: async (tags) => cache.invalidate(tags),
      noticeFor: () => undefined,
      close: async () => {},
    };
  }

  const self = randomUUID();
  let client: Client | undefined;
  let reliable = false;
  let closed = false;
  let retryMs = 500;
  let retryTimer: NodeJS.Timeout | undefined;

  const lost = (reason: string) => {
    reliable = false;
    client = undefined;
    // Writes made while no one listened are unknown: forget everything.
    cache.invalidate(['*']);
    channels?.reset(false);
    if (closed || retryTimer) return;
    log.warn({ reason }, 'response cache: lost the invalidation channel; caching paused until it is back');
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      void listen();
    }, retryMs);
    retryMs = Math.min(retryMs * 2, 10_000);
  };

  async function listen() {
    if (closed) return;
    // Loaded here: a site on the embedded database never needs `pg`.
    const { default: pg } = await import('pg');
    const next = new pg.Client({ connectionString: databaseUrl });
    // Only the connection in use may report its loss (an old one's late events change nothing).
    next.on('error', (err) => client === next && lost(err.message));
    next.on('end', () => client === next && lost('connection ended'));
    next.on('notification', (message) => {
      const handler = channels?.handlers[message.channel];
      if (handler) return handler(message.payload ?? '');
      if (message.channel !== CHANNEL || !message.payload) return;
      const notice = JSON.parse(message.payload) as Notice;
      if (notice.from !== self) cache.invalidate(notice.tags);
    });
    try {
      await next.connect();
      await next.query(`listen ${CHANNEL}`);
      for (const channel of Object.keys(channels?.handlers ?? {})) await next.query(`listen ${channel}`);
    } catch (err) {
      await next.end().catch(() => {});
      lost(err instanceof Error ? err.message : String(err));
      return;
    }
    client = next;
    // Anything written before the channel was up is unknown too.
    cache.invalidate(['*']);
    channels?.reset(true);
    reliable = true;
    retryMs = 500;
  }

  await listen();

  const noticeFor = (tags: readonly string[]): WriteNotice | undefined => {
    if (!options.cache) return undefined;
    const notice: Notice = { from: self, tags: [...tags] };
    return { channel: CHANNEL, payload: JSON.stringify(notice) };
  };

  return {
    get reliable() {
      return reliable;
    },
    noticeFor,
    async publish(tags, publishOptions) {
      if (!options.cache) return;
      cache.invalidate(tags);
      if (publishOptions?.alreadySent) return;
      const notice = noticeFor(tags)!;
      try {
        await sql`select pg_notify(${notice.channel}, ${notice.payload})`.execute(db);
      } catch (err) {
        // The write itself went through; other processes will start afresh when they reconnect.
        log.error({ err }, 'response cache: could not notify the other processes');
      }
    },
    async close() {
      closed = true;
      clearTimeout(retryTimer);
      const current = client;
      client = undefined;
      reliable = false;
      if (current) await current.end().catch(() => {});
    },
  };
}
