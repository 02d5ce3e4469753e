import type Token from 'markdown-it/lib/token.mjs';

export const EXCERPT_MAX_LENGTH = 200;
/** A common figure for adults reading on screen. */
export const WORDS_PER_MINUTE = 225;

/**
 * The text a reader sees, without markup: inline text and code, image descriptions, and the
 * contents of code blocks when `withCode` is set. Blocks are separated by a space.
 */
export function plainText(tokens: Token[], { withCode }: { withCode: boolean }): string {
  const parts: string[] = [];
  for (const token of tokens) {
    if (token.type === 'inline') parts.push(inlineText(token.children ?? []));
    else if (withCode && (token.type === 'fence' || token.type === 'code_block')) parts.push(token.content);
  }
  return parts.join(' ').replace(/\s+/g, ' ').trim();
}

function inlineText(children: Token[]): string {
  let text = '';
  for (const child of children) {
    if (child.type === 'text' || child.type === 'code_inline') text += child.content;
    else if (child.type === 'softbreak' || child.type === 'hardbreak') text += ' ';
    else if (child.type === 'image') text += inlineText(child.children ?? []);
  }
  return text;
}

/**
 * At most `max` characters, cut at the last word boundary that fits and marked with an ellipsis;
 * a single word longer than that is cut inside it.
 */
export function excerptOf(text: string, max = EXCERPT_MAX_LENGTH): string {
  if (text.length <= max) return text;
  const room = text.slice(0, max); // the ellipsis takes the place of the space it is cut at
  const lastSpace = room.lastIndexOf(' ');
  const cut = lastSpace > 0 ? room.slice(0, lastSpace) : room.slice(0, max - 1);
  return `${cut.replace(/[\s,.;:!?–—-]+$/, '')}…`;
}

export function readingMinutes(text: string): number {
  const words = text.split(/\s+/).filter(Boolean).length;
  return Math.max(1, Math.ceil(words / WORDS_PER_MINUTE));
}
