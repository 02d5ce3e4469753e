import type { Kysely } from 'kysely';
import type { SearchPage } from '../../shared/blog-schema.js';
import { PAGE_SIZE, SEARCH_MAX_WORDS } from '../../shared/constants.js';
import { badRequest } from '../errors.js';
import { toBlogSummaryJson } from '../blogs/blog-json.js';
import type { Database } from '../db/schema.js';
import type { ImageStorage } from '../storage/storage.js';
import { countMatchingBlogs, preferTitleIndex, searchBlogRows } from './search.repository.js';
import { searchWords } from './search-words.js';

export interface SearchDeps {
  db: Kysely<Database>;
  storage: ImageStorage;
}

/**
 * Full-text search on titles, the term's words joined by OR; a term without words finds nothing.
 * The cost of one search is bounded: at most `SEARCH_TERM_MAX_LENGTH` characters (the schema)
 * and `SEARCH_MAX_WORDS` distinct words (here).
 */
export async function searchBlogs(
  deps: SearchDeps,
  input: { searchTerm: string; page: number; viewerId: string | null },
): Promise<SearchPage> {
  const empty: SearchPage = { items: [], total: 0, page: input.page, pageSize: PAGE_SIZE, hasMore: false };
  const words = searchWords(input.searchTerm);
  if (words.length > SEARCH_MAX_WORDS) {
    throw badRequest(`The search term has too many words: at most ${SEARCH_MAX_WORDS}.`);
  }
  if (words.length === 0) return empty;

  const offset = (input.page - 1) * PAGE_SIZE;
  const { rows, total } = await deps.db.transaction().execute(async (trx) => {
    await preferTitleIndex(trx);
    const rows = await searchBlogRows(trx, { words, viewerId: input.viewerId, limit: PAGE_SIZE, offset }).execute();
    // Past the last page there is no row to carry the total, so it is counted on its own.
    const total = rows[0]?.total ?? (input.page > 1 ? await countMatchingBlogs(trx, words) : 0);
    return { rows, total };
  });
  return {
    ...empty,
    items: rows.map((row) => toBlogSummaryJson(row, deps.storage)),
    total,
    hasMore: offset + rows.length < total,
  };
}
