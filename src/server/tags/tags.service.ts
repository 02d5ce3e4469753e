import type { Kysely } from 'kysely';
import { normaliseTag, TAG_SUGGESTION_COUNT, TAGS_PAGE_SIZE, type TagSuggestions, type TagsPage } from '../../shared/tag-schema.js';
import type { PublicData } from '../cache/public-data.js';
import type { Database } from '../db/schema.js';
import { selectTagSuggestions, selectTagsPage } from './tags.repository.js';
import { LISTS_TAG } from '../../shared/cache-tags.js';

export interface TagsDeps {
  db: Kysely<Database>;
  publicData: PublicData;
}

/** The tags of public blogs, the most used first, `TAGS_PAGE_SIZE` a page; kept in memory until a write changes a list. */
export async function listTags(deps: TagsDeps, page: number): Promise<TagsPage> {
  const shared = await deps.publicData.remember(`tags:${page}`, [LISTS_TAG], async () => {
    // One row more than a page says whether another page exists.
    const rows = await selectTagsPage(deps.db, { offset: (page - 1) * TAGS_PAGE_SIZE, limit: TAGS_PAGE_SIZE + 1 }).execute();
    return { items: rows.slice(0, TAGS_PAGE_SIZE).map((row) => ({ name: row.tag, blogs: row.blogs })), hasMore: rows.length > TAGS_PAGE_SIZE };
  });
  return { ...shared, page, pageSize: TAGS_PAGE_SIZE };
}

/** What a prefix may hold: the characters of tags. Anything else starts no tag. */
const TAG_PREFIX = /^[\p{L}\p{N}\p{M}-]*$/u;

/** The most used tags starting with what is being typed (any case); no prefix: the most used of all. */
export async function suggestTags(deps: TagsDeps, rawPrefix: string): Promise<TagSuggestions> {
  const prefix = normaliseTag(rawPrefix.trim());
  if (!TAG_PREFIX.test(prefix)) return { items: [] };
  const rows = await selectTagSuggestions(deps.db, prefix, TAG_SUGGESTION_COUNT).execute();
  return { items: rows.map((row) => ({ name: row.tag, blogs: row.blogs })) };
}
