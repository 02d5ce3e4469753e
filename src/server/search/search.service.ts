import type { Kysely } from 'kysely';
import type { SiteSettingsSource } from '../core/site-settings.js';
import type { SearchPage } from '../../shared/blog-schema.js';
import { PAGE_SIZE, SEARCH_COUNT_CAP } from '../../shared/constants.js';
import { toBlogSummaryJson } from '../core/blog-json.js';
import type { ViewerVotes } from '../core/viewer-votes.js';
import type { PublicData } from '../cache/public-data.js';
import type { Database } from '../db/schema.js';
import type { ImageStorage } from '../storage/storage.js';
import { countMatchingBlogs, preferTitleIndex, searchBlogRows } from './search.repository.js';
import { boundedSearchWords, emptySearchPage, searchAnswer, type SearchInput } from './search-page.js';
import { LISTS_TAG } from '../../shared/cache-tags.js';

export interface SearchDeps {
  db: Kysely<Database>;
  storage: ImageStorage;
  publicData: PublicData;
  viewerVotes: ViewerVotes;
  /** 'Show authors by': how each result's author is named. */
  siteSettings: SiteSettingsSource;
}

/**
 * Full-text search on titles, the term's words joined by OR; a term without words finds nothing.
 * The cost of one search is bounded: at most `SEARCH_TERM_MAX_LENGTH` characters (the schema)
 * and `SEARCH_MAX_WORDS` distinct words (here). The total is exact (the spec's text states it),
 * but only up to `SEARCH_COUNT_CAP` matches are ranked: beyond that the page comes in the home
 * list's order straight from its index, so a word found in every title is not ranked and sorted
 * whole for each page.
 */
export async function searchBlogs(deps: SearchDeps, input: SearchInput): Promise<SearchPage> {
  const words = boundedSearchWords(input.searchTerm);
  if (words.length === 0) return emptySearchPage(input.page);

  const offset = (input.page - 1) * PAGE_SIZE;
  // The page as anyone sees it, kept in memory until a write changes a list; the viewer's own
  // votes are read fresh for every answer.
  const shared = await deps.publicData.remember(`search:${words.join(' ')}:${input.page}`, [LISTS_TAG], () =>
    deps.db.transaction().execute(async (trx) => {
      const total = await countMatchingBlogs(trx, words);
      if (offset >= total) return { items: [], total };
      await preferTitleIndex(trx);
      const order = total > SEARCH_COUNT_CAP ? 'rating' : 'rank';
      const rows = await searchBlogRows(trx, { words, viewerId: null, limit: PAGE_SIZE, offset, order }).execute();
      const { showAuthorsBy } = await deps.siteSettings.get();
      return { items: rows.map((row) => toBlogSummaryJson(row, deps.storage, showAuthorsBy)), total };
    }),
  );
  return searchAnswer(deps.viewerVotes, input, offset, shared);
}
