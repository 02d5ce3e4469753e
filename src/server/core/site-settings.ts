import type { Kysely } from 'kysely';
import { EVERYTHING_TAG, SITE_TAG } from '../../shared/cache-tags.js';
import { DEFAULT_TIP_JAR_URL, siteSettingsSchema, siteSettingsToSaveSchema, type SiteSettings } from '../../shared/site-settings-schema.js';
import type { Config } from '../config.js';
import type { Database } from '../db/schema.js';

/** Every setting but the name as a fresh site has it: the spec's site (anyone signs up, as an author). */
export const SETTINGS_DEFAULTS: Omit<SiteSettings, 'siteName'> = {
  description: '',
  logoImageId: null,
  iconImageId: null,
  accentColour: null,
  navigation: [],
  footerText: '',
  defaultRole: 'author',
  registration: 'open',
  reviewNewBlogs: false,
  showAuthorsBy: 'email',
  tipJarUrl: DEFAULT_TIP_JAR_URL,
};

/** What a fresh site reads before its owner saves anything: the configuration's seeds and the spec's defaults. */
export function seededSettings(config: Config): SiteSettings {
  return { siteName: config.siteName, ...SETTINGS_DEFAULTS };
}

/**
 * The settings as the database has them now, past any process's copy (a save reads what it
 * replaces, for the audit log, inside its transaction; `forUpdate` holds the row till it commits).
 */
export async function readSiteSettings(db: Kysely<Database>, config: Config, options: { forUpdate?: boolean } = {}): Promise<SiteSettings> {
  const query = db.selectFrom('site_settings').select('settings').where('id', '=', 1);
  const row = await (options.forUpdate ? query.forUpdate() : query).executeTakeFirst();
  const seeds = seededSettings(config);
  // A setting added later reads its seed until saved; a row that no longer fits is not trusted. A
  // navigation link is read as any text (`siteSettingsSchema`): the navbar renders a bad one inert.
  const parsed = row ? siteSettingsSchema.safeParse({ ...seeds, ...(row.settings as object) }) : undefined;
  return parsed?.success ? parsed.data : seeds;
}

export interface SiteSettingsAccess {
  /** The settings, from memory after the first read; read again after `forget`. */
  get(): Promise<SiteSettings>;
  /** Writes the whole settings (already checked) and forgets this process's copy. */
  save(settings: SiteSettings, db?: Kysely<Database>): Promise<void>;
  /** Drops this process's copy: another process saved (the response cache's notice says so). */
  forget(): void;
}

/**
 * The one accessor of the site's settings (issue 44, DESIGN: "read through one cached accessor,
 * invalidated in every process by the same notice the response cache uses").
 */
export function createSiteSettings(deps: { db: Kysely<Database>; config: Config }): SiteSettingsAccess {
  let cached: Promise<SiteSettings> | undefined;
  const load = () => readSiteSettings(deps.db, deps.config);
  return {
    get: () => {
      cached ??= load().catch((err: unknown) => {
        cached = undefined;
        throw err;
      });
      return cached;
    },
    save: async (settings, db = deps.db) => {
      const json = JSON.stringify(siteSettingsToSaveSchema.parse(settings));
      await db
        .insertInto('site_settings')
        .values({ id: 1, settings: json })
        .onConflict((oc) => oc.column('id').doUpdateSet({ settings: json, updated_at: new Date() }))
        .execute();
      cached = undefined;
    },
    forget: () => {
      cached = undefined;
    },
  };
}

/** Where a reader of the settings (the name, how authors are shown) reads them: through the accessor. */
export type SiteSettingsSource = Pick<SiteSettingsAccess, 'get'>;

/** Where texts that name the site (e-mails) read its name: the settings, through the accessor. */
export type SiteNameSource = Pick<SiteSettingsAccess, 'get'>;

/**
 * Whether a response-cache notice means this process's copy of the settings is stale: a save
 * (`SITE_TAG`), or everything (`*`: a lost listening connection may have missed a save).
 */
export function settingsChangedBy(tags: readonly string[]): boolean {
  return tags.includes(SITE_TAG) || tags.includes(EVERYTHING_TAG);
}
