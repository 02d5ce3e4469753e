import { element, xmlDocument } from './feed-xml.js';
import type { Feed, FeedEntry } from './feed-model.js';

/**
 * Atom 1.0 (RFC 4287). Titles are `type="text"`; the summary and content are `type="html"`: the
 * summary is the excerpt as HTML-escaped text (shown as typed, like RSS `description`), the
 * content the whole post's sanitised HTML. Ids are the blogs' `/viewBlog?id=` URLs, as RSS guids
 * are, so a reader that follows both formats sees the same items (`FeedEntry.id`).
 */

const ATOM_NAMESPACE = 'http://www.w3.org/2005/Atom';

function person(author: FeedEntry['author']) {
  // Atom requires a name: the e-mail itself while the site shows authors by e-mail.
  return element('author', [element('name', author.name), ...(author.email !== undefined ? [element('email', author.email)] : [])]);
}

function entry(item: FeedEntry) {
  return element('entry', [
    element('id', item.id),
    element('title', item.title, { type: 'text' }),
    element('link', [], { rel: 'alternate', type: 'text/html', href: item.url }),
    element('published', item.published.toISOString()),
    element('updated', item.updated.toISOString()),
    person(item.author),
    ...item.tags.map((tag) => element('category', [], { term: tag })),
    element('summary', item.summaryHtml, { type: 'html' }),
    element('content', item.contentHtml, { type: 'html' }),
  ]);
}

export function atomXml(feed: Feed): string {
  return xmlDocument(
    element('feed', [
      element('id', feed.links.atom),
      element('title', feed.title, { type: 'text' }),
      element('subtitle', feed.description, { type: 'text' }),
      element('link', [], { rel: 'self', type: 'application/atom+xml', href: feed.links.atom }),
      element('link', [], { rel: 'alternate', type: 'text/html', href: feed.links.home }),
      element('updated', feed.updated.toISOString()),
      ...feed.entries.map(entry),
    ], { xmlns: ATOM_NAMESPACE }),
  );
}
