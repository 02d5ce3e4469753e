import type { Kysely } from 'kysely';
import type { ContentChanges } from '../cache/content-changes.js';
import type { Config } from '../config.js';
import type { Database } from '../db/schema.js';
import type { OutgoingRequestGuard } from '../http/public-address.js';
import type { JobQueue } from '../queue/job-queue.js';
import type { ImageStorage } from '../storage/storage.js';
import type { SiteSettingsAccess } from '../core/site-settings.js';

/**
 * What the site's federation is given (`federation.ts` re-exports it), and what each of its parts
 * (`dispatchers.ts`, `inbox-listeners.ts`, `outgoing.ts`) is given in turn. Types only: importing
 * this loads nothing of Fedify.
 */
export interface FederationDeps {
  config: Config;
  db: Kysely<Database>;
  storage: ImageStorage;
  queue: Pick<JobQueue, 'wake'>;
  /** What the inbox's writes change (remote replies), as cache tags. */
  contentChanges: ContentChanges;
  /** The site's name and description, for NodeInfo (issue 44's settings). */
  siteSettings: Pick<SiteSettingsAccess, 'get'>;
}

/** The app's deps, and the guard every request made on another server's word runs under. */
export interface FederationPartDeps {
  deps: FederationDeps;
  guard: OutgoingRequestGuard;
}
