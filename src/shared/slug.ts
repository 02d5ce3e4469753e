/**
 * Lowercase ASCII words joined by hyphens, accents dropped ('Café au lait!' → 'cafe-au-lait'),
 * at most `maxLength` characters, never starting or ending with a hyphen; `fallback` when
 * nothing of `text` is left.
 */
export function slugify(text: string, maxLength: number, fallback: string): string {
  const slug = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '') // accents, split off by NFKD: 'café' → 'cafe'
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+/, '')
    .slice(0, maxLength)
    .replace(/-+$/, '');
  return slug || fallback;
}
