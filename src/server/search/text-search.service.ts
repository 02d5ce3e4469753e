import type { Kysely } from 'kysely';
import type { SiteSettingsSource } from '../core/site-settings.js';
import type { SearchPage, SearchResult } from '../../shared/blog-schema.js';
import { PAGE_SIZE } from '../../shared/constants.js';
import { toBlogSummaryJson } from '../core/blog-json.js';
import type { ViewerVotes } from '../core/viewer-votes.js';
import type { PublicData } from '../cache/public-data.js';
import type { Database } from '../db/schema.js';
import { AppError } from '../errors.js';
import type { ImageStorage } from '../storage/storage.js';
import { boundedSearchWords, emptySearchPage, searchAnswer, type SearchInput } from './search-page.js';
import { snippetParts } from './snippet-parts.js';
import { countTextMatchesQuery, prepareTextSearch, selectMatchPage, type MatchPage } from './text-search.repository.js';
import { LISTS_TAG } from '../../shared/cache-tags.js';
import { isStatementTimeout } from '../db/database-errors.js';

/**
 * A search in text ranks every match (`ts_rank` reads and decompresses each match's vector, about
 * 5 KB for 1,000 words: 894 matches cost more than all the rest of a search) when there are at
 * most this many; beyond, blogs whose title matches come first, then the others, each tier in the
 * home list's order, read already sorted from its index. The total stays exact either way.
 */
export const SEARCH_TEXT_RANK_CAP = 200;

/** The longest one search in text may run on Postgres before it is cancelled (a phrase of very common words). */
export const SEARCH_TEXT_TIMEOUT_MS = 3_000;

/**
 * A one-word search's page this deep at most runs without the transaction that steers to the
 * indexes and sets the timeout: deeper, a common word's page walks that many index entries.
 */
export const SEARCH_TEXT_UNGUARDED_OFFSET = 500;

export interface TextSearchDeps {
  db: Kysely<Database>;
  storage: ImageStorage;
  publicData: PublicData;
  viewerVotes: ViewerVotes;
  /** 'Show authors by': how each result's author is named. */
  siteSettings: SiteSettingsSource;
}

const tooSlow = () =>
  new AppError(503, 'SEARCH_TOO_SLOW', 'This search takes too long. Try fewer common words, or fewer words in quotes.', 5);

/**
 * 'Search in text too': titles and texts, phrases in quotes, `-word` to leave out, English
 * stemming; best matches first with a snippet of each blog's text around the matched words; the
 * exact number of matches. A term without words, or made only of exclusions, finds nothing. The
 * cost is bounded: the term's length (the schema) and words (`SEARCH_MAX_WORDS`), ranking only up
 * to `SEARCH_TEXT_RANK_CAP` matches, snippets for one page, and a statement timeout.
 */
export async function searchBlogsInText(deps: TextSearchDeps, input: SearchInput): Promise<SearchPage> {
  const words = boundedSearchWords(input.searchTerm);
  if (words.length === 0) return emptySearchPage(input.page);
  // One spelling per search for the shared memory: blanks collapsed (the query reads them alike).
  const term = input.searchTerm.normalize('NFC').replace(/\s+/g, ' ').trim();

  const offset = (input.page - 1) * PAGE_SIZE;
  const shared = await deps.publicData.remember(`text:${input.page}:${term}`, [LISTS_TAG], async () => {
    const page = async (db: Kysely<Database>, counts: Counts) => {
      if (offset >= counts.total) return { items: [], total: counts.total };
      const rows = await selectMatchPage(db, term, matchPage(counts, offset)).execute();
      const { showAuthorsBy } = await deps.siteSettings.get();
      const items: SearchResult[] = rows.map((row) => ({ ...toBlogSummaryJson(row, deps.storage, showAuthorsBy), snippet: snippetParts(row.headline) }));
      return { items, total: counts.total };
    };
    try {
      // One word (the common case, and the costliest to count): its totals are kept numbers, and
      // the planner, which knows each lexeme's share, picks the indexes by itself, so the search
      // is two statements. At this rate a round trip costs as much as most of the work.
      const quick = await countTextMatchesQuery(deps.db, term, SEARCH_TEXT_RANK_CAP, { throughIndex: false }).executeTakeFirstOrThrow();
      if (quick.total !== null && quick.in_titles !== null && offset <= SEARCH_TEXT_UNGUARDED_OFFSET) {
        return await page(deps.db, { total: quick.total, in_titles: quick.in_titles });
      }
      // Several words, or a deep page: counted through the indexes in a transaction steered to
      // them and bounded by the statement timeout.
      return await deps.db.transaction().execute(async (trx) => {
        await prepareTextSearch(trx, SEARCH_TEXT_TIMEOUT_MS);
        const counts = await countTextMatchesQuery(trx, term, SEARCH_TEXT_RANK_CAP, { throughIndex: true }).executeTakeFirstOrThrow();
        return page(trx, { total: counts.total ?? 0, in_titles: counts.in_titles ?? 0 });
      });
    } catch (error) {
      // Postgres' query_canceled: the statement timeout stopped it.
      if (isStatementTimeout(error)) throw tooSlow();
      throw error;
    }
  });
  return searchAnswer(deps.viewerVotes, input, offset, shared);
}

interface Counts {
  total: number;
  in_titles: number;
}

/** Where the page's matches come from: ranked when they are few, else the title tier then the text tier. */
function matchPage(counts: Counts, offset: number): MatchPage {
  if (counts.total <= SEARCH_TEXT_RANK_CAP) return { kind: 'ranked', limit: PAGE_SIZE, offset };
  const fromTitles = Math.max(0, Math.min(PAGE_SIZE, counts.in_titles - offset));
  return {
    kind: 'tiers',
    title: fromTitles > 0 ? { limit: fromTitles, offset } : undefined,
    text: fromTitles < PAGE_SIZE ? { limit: PAGE_SIZE - fromTitles, offset: Math.max(0, offset - counts.in_titles) } : undefined,
  };
}
