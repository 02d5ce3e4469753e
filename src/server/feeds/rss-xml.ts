import { element, xmlDocument } from './feed-xml.js';

/** RSS 2.0 (https://www.rssboard.org/rss-specification), with the Atom `self` link validators ask for. */

export interface RssItem {
  title: string;
  /** Absolute URL of the blog's page; also its permanent guid. */
  link: string;
  description: string;
  /** RSS wants an e-mail address here, and the site shows the author's e-mail anyway. */
  authorEmail: string;
  published: Date;
}

export interface RssChannel {
  title: string;
  link: string;
  description: string;
  /** Absolute URL of this feed. */
  selfUrl: string;
  items: readonly RssItem[];
}

function item(blog: RssItem) {
  return element('item', [
    element('title', blog.title),
    element('link', blog.link),
    element('guid', blog.link, { isPermaLink: 'true' }),
    // RFC 822 (with a four-digit year, as RFC 1123 and every reader expect), always in GMT.
    element('pubDate', blog.published.toUTCString()),
    element('description', blog.description),
    element('author', blog.authorEmail),
  ]);
}

export function rssXml(channel: RssChannel): string {
  return xmlDocument(
    element('rss', [
      element('channel', [
        element('title', channel.title),
        element('link', channel.link),
        element('description', channel.description),
        element('atom:link', [], { href: channel.selfUrl, rel: 'self', type: 'application/rss+xml' }),
        ...channel.items.map(item),
      ]),
    ], { version: '2.0', 'xmlns:atom': 'http://www.w3.org/2005/Atom' }),
  );
}
