/**
 * The names the response cache keeps answers under, shared by the server's routes and the web
 * app's screens, which declare them where they are defined (`docs/response-cache.md`).
 */

/** Every list a blog's change may reorder or recount: home, author and tag pages, search, feeds, sitemap. */
export const LISTS_TAG = 'lists';
/** Pages of fixed text (About, Support, the owner's pages at /page/…, robots.txt): changed only from /admin's 'Pages' (issue 58). */
export const STATIC_TAG = 'static';
/**
 * The site's settings (name, description, look, navigation): every page, feed and the manifest show
 * them, so a save sends this with `*`; each process forgets its copy of the settings on hearing it.
 */
export const SITE_TAG = 'site';
/** Everything: an account's deletion reaches every list and every page of theirs. */
export const EVERYTHING_TAG = '*';

/** One blog: its API answer, its comments and its page. */
export function blogTag(id: string): string {
  return `blog:${id}`;
}

/**
 * What a page shows, declared by its screen: the cache tags of the page rendered for `url`, or
 * 'never' for a page that is not kept (it is about its reader, or changes without a write).
 * `loaded` is what the screen's loader returned, for a page whose URL alone does not say what it
 * shows (`/blog/<slug>`: the blog its address names).
 */
export type PageCaching = 'never' | ((url: URL, loaded?: unknown) => readonly string[] | undefined);

/** A page of lists (home, search, an author's or a tag's blogs, the tags). */
export const LIST_PAGE: PageCaching = () => [LISTS_TAG];
/** A page of fixed text. */
export const STATIC_PAGE: PageCaching = () => [STATIC_TAG];
