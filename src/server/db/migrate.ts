import type { Kysely } from 'kysely';
import { type Migration, type MigrationProvider, Migrator } from 'kysely/migration';
import * as authTables from './migrations/2026-11-22-01-auth-tables.js';
import * as contactAndRateLimits from './migrations/2026-11-22-02-contact-and-rate-limits.js';
import * as blogs from './migrations/2026-11-22-03-blogs.js';
import * as votes from './migrations/2026-11-22-04-votes.js';
import * as feedIndexes from './migrations/2026-11-23-02-feed-indexes.js';
import * as blogHtml from './migrations/2026-11-23-03-blog-html.js';
import * as imageVariants from './migrations/2026-11-23-04-image-variants.js';
import * as blogStatus from './migrations/2026-11-23-05-blog-status.js';
import * as inlineImages from './migrations/2026-11-23-06-inline-images.js';
import * as comments from './migrations/2026-11-23-07-comments.js';
import * as moderation from './migrations/2026-11-23-08-moderation.js';
import * as hotScore from './migrations/2026-11-23-09-hot-score.js';
import * as sessionEndedNotify from './migrations/2026-11-23-10-session-ended-notify.js';
import * as titleWordCounts from './migrations/2026-11-23-11-title-word-counts.js';
import * as feedsChangedAt from './migrations/2026-11-24-01-feeds-changed-at.js';
import * as queueAndSubscriptions from './migrations/2026-11-25-01-queue-and-subscriptions.js';
import * as scheduledPublishing from './migrations/2026-11-25-03-scheduled-publishing.js';
import * as tagsAndTextSearch from './migrations/2026-11-25-04-tags-and-text-search.js';
import * as rebuildExcerpts from './migrations/2026-11-25-05-rebuild-excerpts.js';
import * as imports from './migrations/2026-11-25-06-imports.js';
import * as profilesAndFederation from './migrations/2026-11-26-01-profiles-and-federation.js';
import * as importRuns from './migrations/2026-11-28-01-import-runs.js';
import * as sessionLastSeen from './migrations/2026-11-28-02-session-last-seen.js';
import * as knownBrowsers from './migrations/2026-11-28-03-known-browsers.js';
import * as secondFactors from './migrations/2026-11-28-04-second-factors.js';
import * as analytics from './migrations/2026-11-28-05-analytics.js';
import * as roles from './migrations/2026-11-29-01-roles.js';
import * as siteSettingsAndAudit from './migrations/2026-11-29-02-site-settings-and-audit.js';
import * as webhooks from './migrations/2026-11-29-03-webhooks.js';
import * as invitations from './migrations/2026-11-29-04-invitations.js';
import * as analyticsViewGroups from './migrations/2026-12-06-01-analytics-view-groups.js';
import * as hashedRateLimitKeys from './migrations/2026-12-07-05-hashed-rate-limit-keys.js';
import * as excerptsWithoutImageText from './migrations/2026-12-08-03-excerpts-without-image-text.js';
import * as sitePages from './migrations/2026-12-08-14-site-pages.js';
import * as blogSlugs from './migrations/2026-12-08-15-blog-slugs.js';
import * as integrations from './migrations/2026-12-08-20-integrations.js';
import * as indieauth from './migrations/2026-12-08-25-indieauth.js';

/**
 * Migrations are listed here rather than read from a folder, so the built server and the tests
 * run exactly the same set. Files are frozen once landed: add a new one to change the schema.
 */
const migrations: Record<string, Migration> = {
  '2026-11-22-01-auth-tables': authTables,
  '2026-11-22-02-contact-and-rate-limits': contactAndRateLimits,
  '2026-11-22-03-blogs': blogs,
  '2026-11-22-04-votes': votes,
  '2026-11-23-02-feed-indexes': feedIndexes,
  '2026-11-23-03-blog-html': blogHtml,
  '2026-11-23-04-image-variants': imageVariants,
  '2026-11-23-05-blog-status': blogStatus,
  '2026-11-23-06-inline-images': inlineImages,
  '2026-11-23-07-comments': comments,
  '2026-11-23-08-moderation': moderation,
  '2026-11-23-09-hot-score': hotScore,
  '2026-11-23-10-session-ended-notify': sessionEndedNotify,
  '2026-11-23-11-title-word-counts': titleWordCounts,
  '2026-11-24-01-feeds-changed-at': feedsChangedAt,
  '2026-11-25-01-queue-and-subscriptions': queueAndSubscriptions,
  '2026-11-25-03-scheduled-publishing': scheduledPublishing,
  '2026-11-25-04-tags-and-text-search': tagsAndTextSearch,
  '2026-11-25-05-rebuild-excerpts': rebuildExcerpts,
  '2026-11-25-06-imports': imports,
  '2026-11-26-01-profiles-and-federation': profilesAndFederation,
  '2026-11-28-01-import-runs': importRuns,
  '2026-11-28-02-session-last-seen': sessionLastSeen,
  '2026-11-28-03-known-browsers': knownBrowsers,
  '2026-11-28-04-second-factors': secondFactors,
  '2026-11-28-05-analytics': analytics,
  '2026-11-29-01-roles': roles,
  '2026-11-29-02-site-settings-and-audit': siteSettingsAndAudit,
  '2026-11-29-03-webhooks': webhooks,
  '2026-11-29-04-invitations': invitations,
  '2026-12-06-01-analytics-view-groups': analyticsViewGroups,
  '2026-12-07-05-hashed-rate-limit-keys': hashedRateLimitKeys,
  '2026-12-08-03-excerpts-without-image-text': excerptsWithoutImageText,
  '2026-12-08-14-site-pages': sitePages,
  '2026-12-08-15-blog-slugs': blogSlugs,
  '2026-12-08-20-integrations': integrations,
  '2026-12-08-25-indieauth': indieauth,
};

const provider: MigrationProvider = { getMigrations: async () => migrations };

export async function migrateToLatest(db: Kysely<any>): Promise<void> {
  const migrator = new Migrator({ db, provider });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((result) => result.status === 'Error');
  if (error || failed) {
    const name = failed ? ` (${failed.migrationName})` : '';
    throw new Error(`Database migration failed${name}: ${error instanceof Error ? error.message : String(error)}`, {
      cause: error,
    });
  }
}

/** Up to and including the migration `name` (an upgrade test's earlier version of the schema). */
export async function migrateTo(db: Kysely<any>, name: string): Promise<void> {
  const { error, results } = await new Migrator({ db, provider }).migrateTo(name);
  if (error || results?.some((result) => result.status === 'Error')) throw new Error(`Database migration to ${name} failed`, { cause: error });
}
