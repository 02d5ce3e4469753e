import { absoluteUrl, paths } from '../../shared/paths';
import type { SiteInfo } from '../../shared/page-render';
import type { PageMeta } from './page-meta';

/** One `<link rel="alternate">` that announces a feed. */
export interface FeedLink {
  type: string;
  title: string;
  href: string;
  /** The page's own feed (an author's), which changes as the reader moves between pages; else the site's. */
  ofPage: boolean;
}

const FORMATS = [
  { type: 'application/rss+xml', name: 'RSS', path: paths.rss },
  { type: 'application/atom+xml', name: 'Atom', path: paths.atom },
  { type: 'application/feed+json', name: 'JSON Feed', path: paths.jsonFeed },
] as const;

/**
 * The feeds every page announces: the site's in all three formats, and the page's own list's
 * (an author's or a tag's blogs) in all three. Feed readers and browsers find them in the head.
 */
export function feedLinks(site: SiteInfo, feed: PageMeta['feed']): FeedLink[] {
  const links = (title: string, of: { author?: string; tag?: string }, ofPage: boolean) =>
    FORMATS.map((format) => ({
      type: format.type,
      title: `${title} (${format.name})`,
      href: absoluteUrl(site.publicUrl, format.path(of.author, of.tag)),
      ofPage,
    }));
  return [...links(site.name, {}, false), ...(feed ? links(feed.title, feed, true) : [])];
}

/** Marks the page's own feed links in the head, so the browser can replace them after a navigation. */
export const PAGE_FEED_ATTRIBUTE = 'data-page-feed';
