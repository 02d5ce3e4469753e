import type { Kysely } from 'kysely';
import type { Blog } from '../../shared/blog-schema.js';
import { findBlogRow } from '../core/blog-rows.repository.js';
import { toBlogJson } from '../core/blog-json.js';
import type { Database } from '../db/schema.js';
import type { ImageStorage } from '../storage/storage.js';
import type { SiteSettingsSource } from '../core/site-settings.js';

/** The blog's JSON exactly as the public sees it (its page, the API); undefined for a draft, a hidden blog or a suspended author's. */
export async function publicBlogJson(deps: { db: Kysely<Database>; storage: ImageStorage; siteSettings: SiteSettingsSource }, id: string): Promise<Blog | undefined> {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) return undefined;
  const row = await findBlogRow(deps.db, null, id);
  return row && toBlogJson(row, deps.storage, (await deps.siteSettings.get()).showAuthorsBy);
}
