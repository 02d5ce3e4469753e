import { TITLE_MAX_LENGTH } from '../../shared/constants.js';

/**
 * The words of a search term: runs of letters, digits and combining marks in any script.
 * Everything else (spaces, punctuation, tsquery operators, quotes, emoji) only separates words,
 * so no character of the term ever reaches the text-search parser as syntax. Repeats are
 * dropped, and so are words longer than any title, which could never match. How many words
 * a search may hold is the caller's rule (`SEARCH_MAX_WORDS`).
 */
export function searchWords(term: string): string[] {
  const words = term.normalize('NFC').toLowerCase().match(/[\p{L}\p{N}\p{M}]+/gu) ?? [];
  const usable = words.filter((word) => word.length <= TITLE_MAX_LENGTH);
  return [...new Set(usable)];
}
