import type { Kysely } from 'kysely';
import type { SearchPage } from '../../shared/blog-schema.js';
import { PAGE_SIZE, SEARCH_COUNT_CAP, SEARCH_MAX_WORDS } from '../../shared/constants.js';
import { badRequest } from '../errors.js';
import { toBlogSummaryJson } from '../blogs/blog-json.js';
import type { Database } from '../db/schema.js';
import type { ImageStorage } from '../storage/storage.js';
import { countMatchingBlogsUpTo, preferTitleIndex, searchBlogRows } from './search.repository.js';
import { searchWords } from './search-words.js';

export interface SearchDeps {
  db: Kysely<Database>;
  storage: ImageStorage;
}

/**
 * Full-text search on titles, the term's words joined by OR; a term without words finds nothing.
 * The cost of one search is bounded: at most `SEARCH_TERM_MAX_LENGTH` characters (the schema)
 * and `SEARCH_MAX_WORDS` distinct words (here), and no search counts or ranks more than
 * `SEARCH_COUNT_CAP` matches: beyond that the total says "more than" (`totalCapped`) and the page
 * comes in the home list's order straight from its index. So a word found in every title costs
 * about what a rare word costs.
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
    // The count is left to the planner: with its limit, a word in most titles is counted by
    // reading the first rows of the table, while the GIN index would list every match first.
    const total = await countMatchingBlogsUpTo(trx, words, SEARCH_COUNT_CAP);
    await preferTitleIndex(trx);
    // Past the last page of an exact count there is nothing to fetch.
    if (total <= SEARCH_COUNT_CAP && offset >= total) return { rows: [], total };
    // One row past the page tells whether another page follows, also past a capped count.
    const order = total > SEARCH_COUNT_CAP ? 'rating' : 'rank';
    const rows = await searchBlogRows(trx, { words, viewerId: input.viewerId, limit: PAGE_SIZE + 1, offset, order }).execute();
    return { rows, total };
  });
  const capped = total > SEARCH_COUNT_CAP;
  return {
    ...empty,
    items: rows.slice(0, PAGE_SIZE).map((row) => toBlogSummaryJson(row, deps.storage)),
    total: capped ? SEARCH_COUNT_CAP : total,
    hasMore: rows.length > PAGE_SIZE,
    ...(capped ? { totalCapped: true } : {}),
  };
}
