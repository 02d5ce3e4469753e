import { hash } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { Counted, CountedView } from './counted-request.js';
import { insertCounted, saltOf, type FeedFetchRow, type ViewGroupRow } from './analytics.repository.js';

/**
 * Beyond this many counted requests in memory a flush starts at once. Under load the views are
 * then written within a fraction of a second, so they die young (a view held for seconds outlived
 * the young generation, and the old one's collections were the counting app's largest extra).
 */
const FLUSH_AT = 2_000;
/** Beyond this many held (the database is behind), new ones are refused until a flush takes them. */
const HOLD_AT_MOST = 40_000;
/** The most views in one written group: its visitors' array text (33 characters a view) stays under a statement's text. */
const GROUP_VIEWS = 2_500;

export interface AnalyticsBuffer {
  /** Keeps a counted request in memory (no database work in the request). */
  record(counted: Counted): void;
  /** Writes what is held, in one batch; resolves when it is written (or failed and kept for the next). */
  flush(): Promise<{ views: number; feedFetches: number }>;
  /** Requests held, not yet written. */
  pending(): number;
  /** Flushes every `flushMs` until `stop()`, which flushes a last time. */
  start(): void;
  stop(): Promise<void>;
}

/** A visitor: the day's salt, the address, the user agent and the site, hashed; none of them can be read back. */
export function visitorHash(salt: string, parts: readonly string[]): string {
  return digest(salt, parts, 'base64url').slice(0, 22);
}

/** A view's visitor as a group holds it: the first 16 bytes of the same digest, in hex (Postgres reads it as a uuid). */
export function visitorId(salt: string, parts: readonly string[]): string {
  return digest(salt, parts, 'hex').slice(0, 32);
}

function digest(salt: string, parts: readonly string[], encoding: 'base64url' | 'hex'): string {
  // One call over the joined text: the same digest as hashing the salt and each part in turn.
  let text = salt;
  for (const part of parts) text += `\0${part}`;
  return hash('sha256', text, encoding);
}

/** Whether two views belong to one group: all of them but their visitors alike. */
function sameGroup(a: CountedView, b: CountedView): boolean {
  return (
    a.day === b.day &&
    a.kind === b.kind &&
    a.blogId === b.blogId &&
    a.referrerHost === b.referrerHost &&
    a.source === b.source &&
    a.utmSource === b.utmSource &&
    a.utmMedium === b.utmMedium &&
    a.utmCampaign === b.utmCampaign
  );
}

/** A view group's key: everything of a view but its visitor (`\x01` for none, which no value holds). */
function groupKey(view: CountedView): string {
  return `${view.day}\0${view.kind}\0${view.blogId ?? '\x01'}\0${view.referrerHost ?? '\x01'}\0${view.source}\0${view.utmSource ?? '\x01'}\0${view.utmMedium ?? '\x01'}\0${view.utmCampaign ?? '\x01'}`;
}

/**
 * The counted views of this process, held in memory and written in batches every few seconds and
 * at shutdown: counting adds no database write to any request, and a kill -9 loses at most the
 * views of the last `flushMs`. A flush that fails keeps its rows for the next one.
 */
export function createAnalyticsBuffer(deps: { db: Kysely<Database>; siteHost: string; flushMs: number; log: FastifyBaseLogger }): AnalyticsBuffer {
  let held: Counted[] = [];
  let timer: NodeJS.Timeout | undefined;
  let chain: Promise<unknown> = Promise.resolve();
  /** Counted requests refused since the last flush because the buffer was full: said in the log, not lost silently. */
  let dropped = 0;
  // This process's copy of the salts it used: a view counted just before midnight and written just
  // after still hashes with its own day's salt once the roll-up has deleted it from the database.
  const salts = new Map<string, string>();

  async function saltFor(day: string): Promise<string> {
    let salt = salts.get(day);
    if (salt === undefined) {
      salt = await saltOf(deps.db, day);
      salts.set(day, salt);
    }
    return salt;
  }

  async function write(batch: Counted[]): Promise<{ views: number; feedFetches: number }> {
    // The views as groups of the same day, page, blog and origin, each with its views' visitors
    // (a row per view was most of what counting cost the database); a large group is split.
    const groups = new Map<string, { view: CountedView; visitors: string[] }>();
    let last: { view: CountedView; visitors: string[] } | undefined;
    const rows: ViewGroupRow[] = [];
    const feeds: FeedFetchRow[] = [];
    let views = 0;
    // The batch's days' salts first (one or two days), then every row without waiting.
    const daySalts = new Map<string, string>();
    for (const counted of batch) if (!daySalts.has(counted.day)) daySalts.set(counted.day, await saltFor(counted.day));
    for (const counted of batch) {
      const salt = daySalts.get(counted.day)!;
      if (counted.type === 'feed') {
        // The fetcher without its count: a reader service whose count changed is still one fetcher.
        const visitor = visitorHash(salt, [counted.address, counted.service, deps.siteHost]);
        feeds.push({ day: counted.day, fetcher: visitorHash(salt, [counted.service, deps.siteHost]), visitor, subscribers: counted.subscribers });
        continue;
      }
      // Views of one page tend to come in runs: the last view's group first, then the key's.
      let group = last !== undefined && sameGroup(last.view, counted) ? last : undefined;
      if (group === undefined) {
        const key = groupKey(counted);
        group = groups.get(key);
        if (group === undefined) {
          group = { view: counted, visitors: [] };
          groups.set(key, group);
        }
      }
      last = group;
      group.visitors.push(visitorId(salt, [counted.address, counted.userAgent, deps.siteHost]));
      views += 1;
      if (group.visitors.length === GROUP_VIEWS) {
        rows.push(groupRow(group.view, group.visitors));
        group.visitors = [];
      }
    }
    for (const group of groups.values()) if (group.visitors.length > 0) rows.push(groupRow(group.view, group.visitors));
    // All of the batch or none of it (a failed flush is kept whole for the next one).
    await insertCounted(deps.db, rows, feeds);
    // Today's salt and yesterday's (for views held across midnight) are all this process keeps.
    while (salts.size > 2) salts.delete([...salts.keys()].sort()[0]!);
    return { views, feedFetches: feeds.length };
  }

  function flush(): Promise<{ views: number; feedFetches: number }> {
    const run = chain.then(async () => {
      if (dropped > 0) {
        deps.log.warn({ dropped }, 'analytics: counted requests dropped (more were held than the buffer keeps; the database is behind)');
        dropped = 0;
      }
      const batch = held;
      held = [];
      if (batch.length === 0) return { views: 0, feedFetches: 0 };
      try {
        const written = await write(batch);
        deps.log.info({ analytics: written }, 'analytics flushed');
        return written;
      } catch (err) {
        deps.log.warn({ err, held: batch.length }, 'analytics flush failed; kept for the next');
        held = batch.concat(held).slice(0, HOLD_AT_MOST);
        return { views: 0, feedFetches: 0 };
      }
    });
    chain = run;
    return run;
  }

  return {
    record(counted) {
      if (held.length >= HOLD_AT_MOST) {
        dropped += 1;
        return;
      }
      held.push(counted);
      if (held.length === FLUSH_AT) void flush();
    },
    flush,
    pending: () => held.length,
    start() {
      timer ??= setInterval(() => void flush(), deps.flushMs);
      timer.unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
      await flush();
    },
  };
}

function groupRow(view: CountedView, visitors: readonly string[]): ViewGroupRow {
  return {
    day: view.day,
    kind: view.kind,
    blog_id: view.blogId,
    referrer_host: view.referrerHost,
    source: view.source,
    utm_source: view.utmSource,
    utm_medium: view.utmMedium,
    utm_campaign: view.utmCampaign,
    visitors: `{${visitors.join(',')}}`,
  };
}
