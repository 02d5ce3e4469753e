import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

/** The owner's About (`{ markdown, html }`) or Support questions (`{ entries }`) as saved, or undefined while the spec's text stands. */
export async function readSiteText(db: Kysely<Database>, key: 'about' | 'faq', options: { forUpdate?: boolean } = {}): Promise<unknown> {
  const query = db.selectFrom('site_texts').select('value').where('key', '=', key);
  const row = await (options.forUpdate ? query.forUpdate() : query).executeTakeFirst();
  return row?.value;
}

export async function writeSiteText(db: Kysely<Database>, key: 'about' | 'faq', value: unknown): Promise<void> {
  const json = JSON.stringify(value);
  await db
    .insertInto('site_texts')
    .values({ key, value: json })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value: json, updated_at: new Date() }))
    .execute();
}

export async function deleteSiteText(db: Kysely<Database>, key: 'about' | 'faq'): Promise<void> {
  await db.deleteFrom('site_texts').where('key', '=', key).execute();
}

export function sitePageBySlug(db: Kysely<Database>, slug: string, options: { forUpdate?: boolean } = {}) {
  const query = db.selectFrom('site_pages').selectAll().where('slug', '=', slug);
  return (options.forUpdate ? query.forUpdate() : query).executeTakeFirst();
}

export function allSitePages(db: Kysely<Database>) {
  return db.selectFrom('site_pages').select(['slug', 'title', 'markdown']).orderBy('created_at').orderBy('slug').execute();
}

/** Inserts a page; false when its address is taken. */
export async function insertSitePage(db: Kysely<Database>, page: { slug: string; title: string; markdown: string; html: string }): Promise<boolean> {
  const inserted = await db.insertInto('site_pages').values(page).onConflict((oc) => oc.column('slug').doNothing()).returning('slug').executeTakeFirst();
  return inserted !== undefined;
}

export async function updateSitePage(db: Kysely<Database>, slug: string, page: { title: string; markdown: string; html: string }): Promise<void> {
  await db.updateTable('site_pages').set({ ...page, updated_at: new Date() }).where('slug', '=', slug).execute();
}

export async function deleteSitePage(db: Kysely<Database>, slug: string): Promise<void> {
  await db.deleteFrom('site_pages').where('slug', '=', slug).execute();
}
