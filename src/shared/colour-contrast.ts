/**
 * WCAG 2.x contrast (https://www.w3.org/TR/WCAG22/#dfn-contrast-ratio), for the site's accent
 * colour: buttons and links draw white text on it (Bootstrap's `btn-primary`), so it must reach
 * AA's 4.5:1 against white.
 */

/** The text the site draws on its accent colour (Bootstrap's primary buttons: white). */
export const TEXT_ON_ACCENT = '#ffffff';
/** WCAG AA for normal text. */
export const MIN_CONTRAST = 4.5;

function channel(hex: string): number {
  const value = parseInt(hex, 16) / 255;
  return value <= 0.04045 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
}

/** The relative luminance of `#rrggbb`, 0 (black) to 1 (white). */
export function relativeLuminance(colour: string): number {
  const hex = colour.replace(/^#/, '');
  return 0.2126 * channel(hex.slice(0, 2)) + 0.7152 * channel(hex.slice(2, 4)) + 0.0722 * channel(hex.slice(4, 6));
}

/** The contrast ratio of two `#rrggbb` colours, 1 to 21. */
export function contrastRatio(a: string, b: string): number {
  const [light, dark] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

/** The refusal of an accent colour too light for the text on it, or null when it reads well. */
export function accentContrastProblem(accent: string): string | null {
  const ratio = contrastRatio(accent, TEXT_ON_ACCENT);
  if (ratio >= MIN_CONTRAST) return null;
  return `The accent colour ${accent} is too light for the white text drawn on it: its contrast is ${ratio.toFixed(2)}:1 and at least ${MIN_CONTRAST}:1 is needed (WCAG AA). Choose a darker colour.`;
}
