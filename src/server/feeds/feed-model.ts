/**
 * One feed, whatever its format: what `feeds.service.ts` builds once and `rss-xml.ts`,
 * `atom-xml.ts` and `json-feed.ts` each write, so the three always carry the same items.
 */

export interface FeedEntry {
  /** Absolute URL of the blog's page at its readable address (issue 58): its link in every format. */
  url: string;
  /**
   * Its permanent id in every format (RSS `guid`, Atom `id`, JSON Feed `id`): the `/viewBlog?id=`
   * URL, as before readable addresses. It stays: a reader that saw an item under this id would show
   * it again as new under another, and the readable address moves with every new title. It is a
   * working link too (`/viewBlog?id=` shows the same page), so RSS may call it a permalink.
   */
  id: string;
  /** Plain text. */
  title: string;
  /** From `outgoingText`: the excerpt as text, and as HTML-escaped text. */
  summaryText: string;
  summaryHtml: string;
  /** From `outgoingText`: the whole post's sanitised HTML with absolute URLs. */
  contentHtml: string;
  /**
   * The author as the site's 'Show authors by' names them; `email` only while it shows authors by
   * e-mail (RSS's `author` is an address; without one, `dc:creator` carries the name).
   */
  author: { name: string; email?: string };
  /** The blog's tags (RSS and Atom `category`, JSON Feed `tags`). */
  tags: readonly string[];
  published: Date;
  updated: Date;
}

export interface FeedLinks {
  /** The page the feed is the list of: the home page, or the author's page. */
  home: string;
  rss: string;
  atom: string;
  json: string;
}

export interface Feed {
  title: string;
  description: string;
  links: FeedLinks;
  /** Newest first. */
  entries: readonly FeedEntry[];
  /** The newest change among the entries; for an empty feed, when the feeds last changed. */
  updated: Date;
}
