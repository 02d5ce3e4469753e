import { element, xmlDocument } from './feed-xml.js';
import type { Feed, FeedEntry } from './feed-model.js';

/**
 * RSS 2.0 (https://www.rssboard.org/rss-specification), with the Atom `self` link validators ask
 * for and the whole post in `content:encoded` (https://web.resource.org/rss/1.0/modules/content/).
 * Readers render `description` as HTML, so it carries the excerpt as HTML-escaped text: XML-escaped
 * once more by `element`, `<b>` written as text reaches the reader as `&lt;b&gt;` and shows as `<b>`.
 */

const CONTENT_NAMESPACE = 'http://purl.org/rss/1.0/modules/content/';
const ATOM_NAMESPACE = 'http://www.w3.org/2005/Atom';
const DUBLIN_CORE_NAMESPACE = 'http://purl.org/dc/elements/1.1/';

function item(entry: FeedEntry) {
  return element('item', [
    element('title', entry.title),
    element('link', entry.url),
    element('guid', entry.id, { isPermaLink: 'true' }),
    // RFC 822 (with a four-digit year, as RFC 1123 and every reader expect), always in GMT.
    element('pubDate', entry.published.toUTCString()),
    element('description', entry.summaryHtml),
    element('content:encoded', entry.contentHtml),
    entry.author.email !== undefined ? element('author', entry.author.email) : element('dc:creator', entry.author.name),
    ...entry.tags.map((tag) => element('category', tag)),
  ]);
}

export function rssXml(feed: Feed): string {
  // Declared only where an author is named without an address ('Show authors by': Name).
  const creators: Record<string, string> = feed.entries.some((entry) => entry.author.email === undefined) ? { 'xmlns:dc': DUBLIN_CORE_NAMESPACE } : {};
  return xmlDocument(
    element('rss', [
      element('channel', [
        element('title', feed.title),
        element('link', feed.links.home),
        element('description', feed.description),
        element('atom:link', [], { href: feed.links.rss, rel: 'self', type: 'application/rss+xml' }),
        ...feed.entries.map(item),
      ]),
    ], { version: '2.0', 'xmlns:atom': ATOM_NAMESPACE, 'xmlns:content': CONTENT_NAMESPACE, ...creators }),
  );
}
