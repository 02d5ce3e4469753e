import type { SearchPage, SearchResult } from '../../shared/blog-schema.js';
import { PAGE_SIZE, SEARCH_MAX_WORDS } from '../../shared/constants.js';
import { withViewerVotes, type ViewerVotes } from '../core/viewer-votes.js';
import { badRequest } from '../errors.js';
import { searchWords } from './search-words.js';

/** What both searches (titles, and titles and texts) are asked: a term, a page, and who asks. */
export interface SearchInput {
  searchTerm: string;
  page: number;
  viewerId: string | null;
}

/** The term's words (`searchWords`): more than `SEARCH_MAX_WORDS` is refused (400), none finds nothing. */
export function boundedSearchWords(searchTerm: string): string[] {
  const words = searchWords(searchTerm);
  if (words.length > SEARCH_MAX_WORDS) throw badRequest(`The search term has too many words: at most ${SEARCH_MAX_WORDS}.`);
  return words;
}

/** A page with no matches. */
export function emptySearchPage(page: number): SearchPage {
  return { items: [], total: 0, page, pageSize: PAGE_SIZE, hasMore: false };
}

/** The answer: the page as anyone sees it (`shared`, from `offset`) with the viewer's own votes read fresh. */
export async function searchAnswer(
  viewerVotes: ViewerVotes,
  input: SearchInput,
  offset: number,
  shared: { items: SearchResult[]; total: number },
): Promise<SearchPage> {
  return {
    ...emptySearchPage(input.page),
    items: await withViewerVotes(viewerVotes, input.viewerId, shared.items),
    total: shared.total,
    hasMore: offset + shared.items.length < shared.total,
  };
}
