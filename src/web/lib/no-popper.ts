/**
 * Stands in for @restart/ui's Popper in the browser's production build (vite.config.ts). react-
 * bootstrap positions a dropdown with Popper only outside a Navbar; the app's one dropdown (More)
 * sits in the Navbar, where Bootstrap places the menu with CSS, so Popper (about 7 KB compressed)
 * was dead weight on every page (docs/page-weight.md). A dropdown or overlay placed anywhere else
 * fails loudly here instead of silently unpositioned: remove the plugin then.
 */
export const placements = [] as const;

export function createPopper(): never {
  throw new Error('Popper is not in this build: dropdowns must sit in the Navbar (see src/web/lib/no-popper.ts).');
}
