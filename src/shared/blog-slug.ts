import { z } from 'zod';

/**
 * A blog's readable address (`/blog/<slug>`, issue 58): its title in lowercase ASCII words joined
 * by hyphens, accents folded ('Café Ölberg' → 'cafe-olberg'), at most `BLOG_SLUG_BASE_MAX_LENGTH`
 * characters before the `-2`, `-3`… that keeps it unique on the site. A title with no letter or
 * digit to keep (only signs, or a script with no ASCII spelling) gets `blog-` and the start of the
 * blog's id. The database makes the slugs (migration 2026-12-08-15, `blog_slug_base`): these rules
 * are the same, and `blog-slugs.test.ts` holds the two together.
 */
export const BLOG_SLUG_BASE_MAX_LENGTH = 60;

/** Letters with no combining accent to strip, spelled as their usual ASCII form. */
export const SLUG_LETTERS: readonly (readonly [string, string])[] = [
  ['ß', 'ss'],
  ['æ', 'ae'],
  ['Æ', 'ae'],
  ['œ', 'oe'],
  ['Œ', 'oe'],
  ['ø', 'o'],
  ['Ø', 'o'],
  ['đ', 'd'],
  ['Đ', 'd'],
  ['ð', 'd'],
  ['Ð', 'd'],
  ['ł', 'l'],
  ['Ł', 'l'],
  ['þ', 'th'],
  ['Þ', 'th'],
  ['ı', 'i'],
];

/** The slug a title asks for, before a suffix makes it unique. */
export function blogSlugBase(title: string, id: string): string {
  return slugWords(title) || `blog-${id.slice(0, 8)}`;
}

/** A text's words as a slug; empty when it has no letter or digit to keep (an import's slug is then made from the title). */
export function slugWords(title: string): string {
  // Accents first, then only ASCII is lowercased: the database's lower() depends on its locale.
  let text = title.normalize('NFD').replace(/[\u0300-\u036f]/g, '');
  for (const [letter, ascii] of SLUG_LETTERS) text = text.replaceAll(letter, ascii);
  const words = text
    .replace(/[A-Z]+/g, (upper) => upper.toLowerCase())
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return words.slice(0, BLOG_SLUG_BASE_MAX_LENGTH).replace(/-+$/, '');
}

/** What a slug may look like: the base's form, with room for a suffix. */
export const blogSlugSchema = z
  .string()
  .max(BLOG_SLUG_BASE_MAX_LENGTH + 12)
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'A blog address is lowercase letters and digits in words joined by hyphens.');

