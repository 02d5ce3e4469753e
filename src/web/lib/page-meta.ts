import type { QueryClient } from '@tanstack/react-query';
import { absoluteUrl } from '../../shared/paths';
import type { SiteInfo } from '../../shared/page-render';
import type { PageCaching } from '../../shared/cache-tags';

export const SITE_DESCRIPTION = 'Read, write and vote on blogs.';

/** What a page says it is: its title, description, canonical path and previews. */
export interface PageMeta {
  /** Without the site's name; omitted on the home page, whose title is the site's name. */
  title?: string;
  description: string;
  /** Canonical path, from `paths`. */
  path: string;
  type?: 'website' | 'article';
  /** Site-relative or absolute URL of the preview image. */
  image?: string | null;
  /** The feeds of this page's own list (an author's blogs, by their user id, or a tag's), beside the site's. */
  feed?: { title: string; author?: string; tag?: string };
  /** JSON-LD for the page (a `BlogPosting` on blogs). */
  jsonLd?: Record<string, unknown>;
}

export interface MetaArgs {
  url: URL;
  queryClient: QueryClient;
  site: SiteInfo;
}

export type MetaFunction = (args: MetaArgs) => PageMeta;

/** Route `handle`s: how the route describes itself and what its loading error says. */
export interface RouteHandle {
  meta: MetaFunction;
  /** What the page shows, for the server's response cache (`Screen.cache`); unset: never kept. */
  cache?: PageCaching;
  /** Rendered with the signed-in reader's session (`Screen.forTheViewer`). */
  forTheViewer?: true;
  /** An anonymous reader's copy loads the app's script on their first touch (`Screen.scriptOnFirstTouch`). */
  scriptOnFirstTouch?: true;
  /** The start of the message when the route's data fails to load ('The blogs could not be loaded.'). */
  loadError?: string;
}

export function isRouteHandle(handle: unknown): handle is RouteHandle {
  return typeof handle === 'object' && handle !== null && typeof (handle as RouteHandle).meta === 'function';
}

/**
 * A page's description: its own, or the site's. Screens say `SITE_DESCRIPTION` for "the site's",
 * which is the owner's description once one is set (issue 44's settings).
 */
export function pageDescription(meta: PageMeta, site: SiteInfo): string {
  return meta.description === SITE_DESCRIPTION && site.description ? site.description : meta.description;
}

/**
 * The rules that make the accent colour Bootstrap's primary (links, buttons, active pills and
 * menu items, checked boxes), or null for the theme's own. Each selector is written twice: the
 * stylesheet sets the same properties at the same specificity (`:root`, `.btn-primary`, …) and
 * comes later in the head (Vite puts its link last), so a plain selector would lose to it on
 * every page the server sends (issue 58). Doubled, the accent wins wherever its `<style>` is.
 */
export function accentStyles(accent: string | null | undefined): string | null {
  if (!accent || !/^#[0-9a-f]{6}$/i.test(accent)) return null;
  const rgb = [1, 3, 5].map((at) => parseInt(accent.slice(at, at + 2), 16)).join(', ');
  const solid = `--bs-btn-hover-bg:${accent};--bs-btn-hover-border-color:${accent};--bs-btn-active-bg:${accent};--bs-btn-active-border-color:${accent};--bs-btn-focus-shadow-rgb:${rgb};--bs-btn-hover-color:#fff;--bs-btn-active-color:#fff`;
  return (
    `:root:root{--site-accent:${accent};--bs-primary:${accent};--bs-primary-rgb:${rgb};--bs-link-color:${accent};--bs-link-color-rgb:${rgb};--bs-link-hover-color:${accent};--bs-link-hover-color-rgb:${rgb}}` +
    `.btn-primary.btn-primary{--bs-btn-bg:${accent};--bs-btn-border-color:${accent};--bs-btn-disabled-bg:${accent};--bs-btn-disabled-border-color:${accent};--bs-btn-color:#fff;${solid}}` +
    `.btn-primary.btn-primary:hover,.btn-primary.btn-primary:active{filter:brightness(90%)}` +
    `.btn-outline-primary.btn-outline-primary{--bs-btn-color:${accent};--bs-btn-border-color:${accent};--bs-btn-disabled-color:${accent};--bs-btn-disabled-border-color:${accent};${solid}}` +
    `.nav-pills.nav-pills{--bs-nav-pills-link-active-bg:${accent};--bs-nav-pills-link-active-color:#fff}` +
    `.dropdown-menu.dropdown-menu{--bs-dropdown-link-active-bg:${accent};--bs-dropdown-link-active-color:#fff}` +
    `.form-check-input.form-check-input:checked{background-color:${accent};border-color:${accent}}`
  );
}

export function fullTitle(meta: PageMeta, site: SiteInfo): string {
  return meta.title ? `${meta.title} · ${site.name}` : site.name;
}

/** An image URL as an absolute URL (stored images may be site-relative `/uploads/…`). */
export function absoluteImageUrl(site: SiteInfo, url: string): string {
  return /^https?:\/\//.test(url) ? url : absoluteUrl(site.publicUrl, url);
}

/** The first ~155 characters of a text, cut at a word, for descriptions and previews. */
export function describe(text: string, max = 155): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max - 1);
  const lastSpace = cut.lastIndexOf(' ');
  return `${(lastSpace > max / 2 ? cut.slice(0, lastSpace) : cut).trimEnd()}…`;
}
