import type Token from 'markdown-it/lib/token.mjs';

export const EXCERPT_MAX_LENGTH = 200;
/** A common figure for adults reading on screen. */
export const WORDS_PER_MINUTE = 225;

/**
 * The text a reader sees, without markup: inline text and code, image descriptions unless
 * `withImages` is false, and the contents of code blocks when `withCode` is set. Blocks are
 * separated by a space.
 */
export function plainText(tokens: Token[], { withCode, withImages = true }: { withCode: boolean; withImages?: boolean }): string {
  const parts: string[] = [];
  for (const token of tokens) {
    if (token.type === 'inline') parts.push(inlineText(token.children ?? [], withImages));
    else if (withCode && (token.type === 'fence' || token.type === 'code_block')) parts.push(token.content);
  }
  return parts.join(' ').replace(/\s+/g, ' ').trim();
}

/**
 * An image's description is read in its place on the page, but in a line of text about the post
 * it reads as a stray word (an editor once made it the file's name: "…stays open. chart. It is…").
 */
function inlineText(children: Token[], withImages: boolean): string {
  let text = '';
  for (const child of children) {
    if (child.type === 'text' || child.type === 'code_inline') text += child.content;
    else if (child.type === 'softbreak' || child.type === 'hardbreak') text += ' ';
    else if (child.type === 'image' && withImages) text += inlineText(child.children ?? [], withImages);
  }
  return text;
}

/** What a block of text is, for how it is joined to the next one in an excerpt. */
type BlockKind = 'heading' | 'item' | 'paragraph';

const ENDS_A_SENTENCE = /[.!?…:;]["'’”)\]]*$/u;
const ENDS_A_PART = /[.!?…:;,]["'’”)\]]*$/u;

/**
 * The prose of a post as one line of text that keeps its blocks apart: a heading ends with a
 * full stop (unless it ends with its own punctuation), list items and table cells are separated
 * by semicolons and the list ends with a full stop, and a paragraph that stops without
 * punctuation before the next block gets a full stop. Code blocks and images' descriptions are
 * left out (a block of nothing but images is no block).
 */
export function excerptText(tokens: Token[]): string {
  const blocks: { text: string; kind: BlockKind }[] = [];
  let inItem = 0;
  let inCell = 0;
  let inHeading = false;
  for (const token of tokens) {
    if (token.type === 'list_item_open') inItem += 1;
    else if (token.type === 'list_item_close') inItem -= 1;
    else if (token.type === 'th_open' || token.type === 'td_open') inCell += 1;
    else if (token.type === 'th_close' || token.type === 'td_close') inCell -= 1;
    else if (token.type === 'heading_open') inHeading = true;
    else if (token.type === 'heading_close') inHeading = false;
    else if (token.type === 'inline') {
      const text = inlineText(token.children ?? [], false).replace(/\s+/g, ' ').trim();
      if (text) blocks.push({ text, kind: inHeading ? 'heading' : inItem > 0 || inCell > 0 ? 'item' : 'paragraph' });
    }
  }
  return blocks
    .map(({ text, kind }, i) => {
      const next = blocks[i + 1];
      if (kind === 'heading') return ENDS_A_SENTENCE.test(text) ? text : `${text}.`;
      if (!next) return text;
      if (kind === 'item' && next.kind === 'item') return ENDS_A_PART.test(text) ? text : `${text};`;
      return ENDS_A_SENTENCE.test(text) ? text : `${text}.`;
    })
    .join(' ');
}

/**
 * At most `max` characters, cut after the last whole word that fits (never inside one) and
 * marked with an ellipsis; a text that fits is returned whole, with no ellipsis. Only a first
 * "word" longer than the limit on its own (a long address) is cut inside it, as nothing else
 * would be left to show.
 */
export function excerptOf(text: string, max = EXCERPT_MAX_LENGTH): string {
  if (text.length <= max) return text;
  // The ellipsis takes one character; the cut must fall on a space, so the word before it is whole.
  const room = text.slice(0, max);
  const lastSpace = room.lastIndexOf(' ');
  const cut = lastSpace > 0 ? room.slice(0, lastSpace) : room.slice(0, max - 1);
  return `${cut.replace(/[\s,.;:!?–—-]+$/u, '')}…`;
}

export function readingMinutes(text: string): number {
  const words = text.split(/\s+/).filter(Boolean).length;
  return Math.max(1, Math.ceil(words / WORDS_PER_MINUTE));
}
