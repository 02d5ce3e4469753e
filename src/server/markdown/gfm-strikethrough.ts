import type MarkdownIt from 'markdown-it';
import type StateInline from 'markdown-it/lib/rules_inline/state_inline.mjs';
import type { Delimiter } from 'markdown-it/lib/rules_inline/state_inline.mjs';

/**
 * GFM strikethrough, in place of markdown-it's (which takes only `~~` and writes `<s>`): text
 * between one or two tildes is struck, as `<del>`; an opening run closes only on a run of the same
 * length, and three or more tildes are plain text. Which runs may open or close follows the same
 * flanking rules as `*` emphasis.
 */
export function useGfmStrikethrough(md: MarkdownIt): void {
  md.inline.ruler.at('strikethrough', tokenize);
  md.inline.ruler2.at('strikethrough', postProcess);
}

const TILDE = 0x7e;
// markdown-it pairs delimiters of equal `marker`, whatever their length: runs of one and of two
// tildes get distinct markers, so `~a~~` is no strikethrough. (Not characters: never rendered.)
const MARKER_BY_LENGTH: Record<number, number> = { 1: 0x10000 + 1, 2: 0x10000 + 2 };
const MARKERS = new Set(Object.values(MARKER_BY_LENGTH));

function tokenize(state: StateInline, silent: boolean): boolean {
  if (silent || state.src.charCodeAt(state.pos) !== TILDE) return false;
  const scanned = state.scanDelims(state.pos, true);
  const token = state.push('text', '', 0);
  token.content = '~'.repeat(scanned.length);
  const marker = MARKER_BY_LENGTH[scanned.length];
  if (marker !== undefined && (scanned.can_open || scanned.can_close)) {
    state.delimiters.push({
      marker,
      length: 0, // no "rule of 3": that is for emphasis
      token: state.tokens.length - 1,
      end: -1,
      open: scanned.can_open,
      close: scanned.can_close,
    });
  }
  state.pos += scanned.length;
  return true;
}

function strike(state: StateInline, delimiters: Delimiter[]): void {
  for (const start of delimiters) {
    if (!MARKERS.has(start.marker) || start.end === -1) continue;
    const end = delimiters[start.end]!;
    for (const [index, nesting] of [[start.token, 1], [end.token, -1]] as const) {
      const token = state.tokens[index]!;
      token.type = nesting === 1 ? 's_open' : 's_close';
      token.tag = 'del';
      token.nesting = nesting;
      token.markup = token.content;
      token.content = '';
    }
  }
}

function postProcess(state: StateInline): boolean {
  strike(state, state.delimiters);
  for (const meta of state.tokens_meta) if (meta?.delimiters) strike(state, meta.delimiters);
  return false;
}
