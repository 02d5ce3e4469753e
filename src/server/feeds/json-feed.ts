import type { Feed, FeedEntry } from './feed-model.js';

/**
 * JSON Feed 1.1 (https://www.jsonfeed.org/version/1.1/). `summary` is plain text by the spec, so
 * it carries the excerpt as text (not escaped: a JSON Feed reader never reads it as HTML);
 * `content_html` the whole post's sanitised HTML. `JSON.stringify` does all the escaping.
 */

function item(entry: FeedEntry) {
  return {
    id: entry.id,
    url: entry.url,
    title: entry.title,
    content_html: entry.contentHtml,
    summary: entry.summaryText,
    date_published: entry.published.toISOString(),
    date_modified: entry.updated.toISOString(),
    authors: [{ name: entry.author.name }],
    ...(entry.tags.length > 0 ? { tags: entry.tags } : {}),
  };
}

export function jsonFeed(feed: Feed): string {
  return `${JSON.stringify(
    {
      version: 'https://jsonfeed.org/version/1.1',
      title: feed.title,
      home_page_url: feed.links.home,
      feed_url: feed.links.json,
      description: feed.description,
      items: feed.entries.map(item),
    },
    null,
    2,
  )}\n`;
}
