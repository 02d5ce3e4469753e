import type { SnippetPart } from '../../shared/blog-schema.js';
import { AMPERSAND_STAND_IN, LESS_THAN_STAND_IN, MATCH_END, MATCH_START } from './text-search.repository.js';

/** Characters of a snippet at most, whatever `ts_headline` gave (a "word" may be very long). */
export const SNIPPET_MAX_LENGTH = 400;

/**
 * `ts_headline`'s output as parts of plain text, each marked as a match or not. Only the two
 * sentinels are read (and the stand-ins of `<` and `&` turned back); everything else, markup
 * characters and quotes included, is text the page shows as text. A sentinel out of place (unbalanced) only ends or starts a match. Blanks are collapsed,
 * empty parts dropped, neighbours of one kind joined, and the whole cut at `maxLength`.
 */
export function snippetParts(headline: string, maxLength = SNIPPET_MAX_LENGTH): SnippetPart[] {
  const parts: SnippetPart[] = [];
  let match = false;
  let length = 0;
  // eslint-disable-next-line no-control-regex -- the two sentinels are control characters
  for (const piece of headline.split(/([\u0001\u0002])/)) {
    if (piece === MATCH_START || piece === MATCH_END) {
      match = piece === MATCH_START;
      continue;
    }
    let text = piece.replace(/\s+/g, ' ').replaceAll(LESS_THAN_STAND_IN, '<').replaceAll(AMPERSAND_STAND_IN, '&');
    if (length === 0) text = text.trimStart();
    if (text === '') continue;
    if (length + text.length > maxLength) text = `${text.slice(0, Math.max(0, maxLength - length)).trimEnd()}…`;
    const last = parts.at(-1);
    if (last && last.match === match) last.text += text;
    else parts.push({ text, match });
    length += text.length;
    if (length >= maxLength) break;
  }
  const last = parts.at(-1);
  if (last && !last.match) last.text = last.text.trimEnd();
  return parts.filter((part) => part.text !== '');
}
