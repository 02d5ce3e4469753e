/**
 * The app's paths, built in one place: the web app links with them, the server renders
 * canonical URLs, feeds and sitemaps with them. Parameters are query parameters, as the spec's
 * routes are (`/viewBlog?id=`, `/edit?id=`, `/search?searchTerm=`, `/auth?view=`).
 */

function withQuery(path: string, params: Record<string, string | number | undefined>): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined && value !== '') query.set(name, String(value));
  }
  const text = query.toString();
  return text ? `${path}?${text}` : path;
}

/** Page 1 is the bare path, so each list page has one canonical URL. */
const pageParam = (page?: number) => (page && page > 1 ? page : undefined);

export const paths = {
  /** `sort` is left out for the default order ('top'), so `/` stays the canonical home page. */
  home: (page?: number, sort?: string) => withQuery('/', { sort: sort === 'top' ? undefined : sort, page: pageParam(page) }),
  author: (id: string, page?: number) => withQuery('/author', { id, page: pageParam(page) }),
  about: () => '/about',
  support: () => '/support',
  /** A page the owner wrote (issue 58), under a prefix of its own so it never meets the app's routes. */
  sitePage: (slug: string) => `/page/${encodeURIComponent(slug)}`,
  create: () => '/create',
  settings: () => '/settings',
  drafts: () => '/drafts',
  ai: () => '/ai',
  moderation: () => '/moderation',
  /** The owner's and administrators' seat: site, people, integrations, audit log. */
  admin: () => '/admin',
  /** One of /admin's sections (issue 59): `site`, `people`, `audit-log`, ... */
  adminSection: (id: string) => `/admin/${id}`,
  import: () => '/import',
  /** The site's figures (moderators); `days` or a custom `from`/`to` range. */
  analytics: (range: Record<string, string | undefined> = {}) => withQuery('/analytics', range),
  /** One blog's figures, for its author. */
  blogAnalytics: (id: string, range: Record<string, string | undefined> = {}) => withQuery('/analytics/blog', { id, ...range }),
  /** The signed-in reader's fediverse follows, their posts and replies. */
  following: () => '/following',
  auth: (view?: string, extra: Record<string, string> = {}) => withQuery('/auth', { view, ...extra }),
  viewBlog: (id: string) => withQuery('/viewBlog', { id }),
  /** A blog's readable address (issue 58), its canonical URL; `/viewBlog?id=` shows the same page. */
  blog: (slug: string) => `/blog/${encodeURIComponent(slug)}`,
  edit: (id: string) => withQuery('/edit', { id }),
  /** `searchIn` 'all' is 'Search in text too'; the spec's title search has no `in`. */
  search: (searchTerm: string, page?: number, searchIn?: string) =>
    withQuery('/search', { searchTerm, in: searchIn === 'all' ? 'all' : undefined, page: pageParam(page) }),
  /** One tag's public blogs; `sort` is left out for the default order ('top'), as on the home page. */
  tag: (name: string, page?: number, sort?: string) => withQuery('/tag', { name, sort: sort === 'top' ? undefined : sort, page: pageParam(page) }),
  tags: (page?: number) => withQuery('/tags', { page: pageParam(page) }),
  /** The three feeds of the same items (the site's newest, one author's or one tag's): RSS 2.0, Atom 1.0, JSON Feed 1.1. */
  rss: (author?: string, tag?: string) => withQuery('/rss.xml', { author, tag }),
  atom: (author?: string, tag?: string) => withQuery('/atom.xml', { author, tag }),
  jsonFeed: (author?: string, tag?: string) => withQuery('/feed.json', { author, tag }),
  sitemap: () => '/sitemap.xml',
  /** The parts `/sitemap.xml` lists when it is an index: the static pages, and blogs in id order from `from`. */
  sitemapPages: () => '/sitemap-pages.xml',
  sitemapBlogs: (from?: string) => withQuery('/sitemap-blogs.xml', { from }),
  robots: () => '/robots.txt',
  /** The page an e-mail's unsubscribe link opens (its button unsubscribes); a POST there is RFC 8058's one click. */
  unsubscribe: (token: string) => withQuery('/unsubscribe', { token }),
  /** The page a new sign-in's e-mail links to: its button ('This wasn't me') signs that browser out. */
  notMe: (token: string) => withQuery('/not-me', { token }),
  /** A subscription e-mail's links: the page whose button confirms, and the page whose button unsubscribes (a POST there is one click). */
  confirmSubscription: (token: string) => withQuery('/subscription/confirm', { token }),
  unsubscribeSubscription: (token: string) => withQuery('/subscription/unsubscribe', { token }),
};

/** An absolute URL on the site, from `PUBLIC_URL` (no trailing slash) and a path of `paths`. */
export function absoluteUrl(publicUrl: string, path: string): string {
  return `${publicUrl}${path}`;
}
