import type { Kysely } from 'kysely';
import type { PublicData } from './cache/public-data.js';
import type { ViewerVotes } from './core/viewer-votes.js';
import type { AuthHandle, Sessions } from './core/sessions.js';
import type { Config } from './config.js';
import type { Database } from './db/schema.js';
import type { Mailer } from './mail/mailer.js';
import type { JobQueue } from './queue/job-queue.js';
import type { RateLimiter } from './rate-limit/rate-limit.js';
import type { ImageStorage } from './storage/storage.js';
import type { ContentChanges } from './cache/content-changes.js';
import type { SiteSettingsAccess } from './core/site-settings.js';

/**
 * What every route plugin receives: the app's parts, built once in `buildApp`. In its own
 * file so route files and `app.ts` never import each other.
 */
export interface AppDeps {
  config: Config;
  db: Kysely<Database>;
  /** Queues each message (the durable queue sends it): an SMTP outage delays mail, it fails no request. */
  mailer: Mailer;
  /** The durable job queue (`queue/job-queue.ts`). */
  queue: JobQueue;
  /** Better Auth's instance, as features other than auth may use it (`core/sessions.ts`). */
  auth: AuthHandle;
  sessions: Sessions;
  storage: ImageStorage;
  /** Per-address and per-client limits, counted in the database (shared by all processes). */
  limiter: RateLimiter;
  /** What anonymous readers see, kept in memory for every answer, and the cache notices writes send themselves. */
  publicData: PublicData;
  /** Signed-in readers' own votes on the cards they are shown, batched per event-loop turn. */
  viewerVotes: ViewerVotes;
  /** What work outside a request changed, as cache tags (a request's route declares its own: `changes`). */
  contentChanges: ContentChanges;
  /** The site's settings (name, look, registration, roles of new accounts), cached per process. */
  siteSettings: SiteSettingsAccess;
}
