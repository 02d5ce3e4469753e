import { element, type XmlFragment, xmlDocument } from './feed-xml.js';

/** The sitemap protocol (https://www.sitemaps.org/protocol.html): a list of URLs, or an index of lists. */

const SITEMAP_NAMESPACE = 'http://www.sitemaps.org/schemas/sitemap/0.9';

export interface SitemapEntry {
  /** An absolute URL. */
  loc: string;
  lastmod?: Date;
}

function entry(name: 'url' | 'sitemap', { loc, lastmod }: SitemapEntry): XmlFragment {
  const children = [element('loc', loc)];
  // W3C Datetime, as the protocol asks; ISO 8601 in UTC is one of its forms.
  if (lastmod) children.push(element('lastmod', lastmod.toISOString()));
  return element(name, children);
}

export function urlsetXml(urls: readonly SitemapEntry[]): string {
  return xmlDocument(element('urlset', urls.map((url) => entry('url', url)), { xmlns: SITEMAP_NAMESPACE }));
}

export function sitemapIndexXml(sitemaps: readonly SitemapEntry[]): string {
  return xmlDocument(element('sitemapindex', sitemaps.map((sitemap) => entry('sitemap', sitemap)), { xmlns: SITEMAP_NAMESPACE }));
}
