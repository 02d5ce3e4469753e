import type { Kysely } from 'kysely';
import { siteSettingsSchema, type SiteSettings } from '../../shared/site-settings-schema.js';
import type { Config } from '../config.js';
import type { Database } from '../db/schema.js';

/** What a fresh site reads before its owner saves anything: the configuration's seeds and the spec's defaults. */
export function seededSettings(config: Config): SiteSettings {
  return {
    siteName: config.siteName,
    description: '',
    logoImageId: null,
    iconImageId: null,
    accentColour: null,
    navigation: [],
    footerText: '',
    defaultRole: 'author',
    registration: 'open',
    reviewNewBlogs: false,
  };
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
  const load = async (): Promise<SiteSettings> => {
    const row = await deps.db.selectFrom('site_settings').select('settings').where('id', '=', 1).executeTakeFirst();
    const seeds = seededSettings(deps.config);
    // A setting added later reads its seed until saved; a row that no longer fits is not trusted.
    const parsed = row ? siteSettingsSchema.safeParse({ ...seeds, ...(row.settings as object) }) : undefined;
    return parsed?.success ? parsed.data : seeds;
  };
  return {
    get: () => {
      cached ??= load().catch((err: unknown) => {
        cached = undefined;
        throw err;
      });
      return cached;
    },
    save: async (settings, db = deps.db) => {
      const json = JSON.stringify(siteSettingsSchema.parse(settings));
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
