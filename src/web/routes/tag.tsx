import { Link, useSearchParams } from 'react-router';
import { paths } from '../../shared/paths';
import { tagNameSchema } from '../../shared/tag-schema';
import { SortLinks, SORTS, sortFromUrl } from '../components/sort-links';
import { getTagBlogsQueryOptions } from '../features/blogs/api/get-tag-blogs';
import { BlogListPage } from '../features/blogs/components/blog-list-page';
import { TAG_TEXTS } from '../features/tags/tag-texts';
import { loadQuery, routeError } from '../lib/load-query';
import { usePagedQuery } from '../lib/use-paged-query';
import { BLOG_LIST_LOAD_ERROR, LIST_SCREEN, type Screen } from '../lib/screen';
import { pageFromUrl, usePageParam } from '../lib/use-page-param';

/** The tag named in the URL made canonical (`React` is `react`), or undefined when it cannot be a tag. */
const tagFrom = (params: URLSearchParams): string | undefined => tagNameSchema.safeParse(params.get('name') ?? '').data;

const listOf = (url: URL) => ({ tag: tagFrom(url.searchParams), page: pageFromUrl(url.searchParams.get('page')), sort: sortFromUrl(url.searchParams.get('sort')) });

function TagDoesNotExist() {
  const [searchParams] = useSearchParams();
  const tag = tagFrom(searchParams);
  return (
    <div className="py-4">
      <h1 className="h3">{tag ? TAG_TEXTS.noBlogsTagged(tag) : TAG_TEXTS.noSuchTag}</h1>
      <Link to={paths.tags()}>{TAG_TEXTS.allTags}</Link>
    </div>
  );
}

/**
 * /tag?name={tag}&sort=&page=N : the public blogs carrying a tag, with the home list's cards,
 * orders (Top, New, Hot) and pager.
 */
function TagPage() {
  const [searchParams] = useSearchParams();
  const tag = tagFrom(searchParams) ?? '';
  const sort = sortFromUrl(searchParams.get('sort'));
  const [page, goTo] = usePageParam();
  const list = usePagedQuery(page, (at) => getTagBlogsQueryOptions(tag, at, sort));

  return (
    <>
      <h1 className="h3 mb-3">{TAG_TEXTS.blogsTagged(tag)}</h1>
      <SortLinks current={sort} pathOf={(order) => paths.tag(tag, 1, order)} />
      {/* The pager changes only `page` in the URL, so the tag and the order stay. */}
      <BlogListPage list={list} page={page} onPageChange={goTo} noBlogs={<p>{TAG_TEXTS.noBlogsTagged(tag)}</p>} />
      <p>
        <Link to={paths.tags()}>{TAG_TEXTS.allTags}</Link>
      </p>
    </>
  );
}

export const tagScreen: Screen = {
  ...LIST_SCREEN,
  Component: TagPage,
  loader: (queryClient) => async ({ request }) => {
    const { tag, page, sort } = listOf(new URL(request.url));
    if (!tag) throw routeError(404, TAG_TEXTS.noSuchTag);
    const list = await loadQuery(queryClient, getTagBlogsQueryOptions(tag, page, sort));
    // A tag no public blog carries has no page (it may have had one: its blogs were edited, hidden or deleted).
    if (page === 1 && list.items.length === 0) throw routeError(404, TAG_TEXTS.noBlogsTagged(tag));
    return null;
  },
  meta: ({ url }) => {
    const { tag, page, sort } = listOf(url);
    if (!tag) return { title: TAG_TEXTS.noSuchTag, description: TAG_TEXTS.noSuchTag, path: paths.tags() };
    const heading = TAG_TEXTS.blogsTagged(tag);
    const order = sort === 'top' ? '' : ` (${SORTS.find((option) => option.sort === sort)?.label ?? sort})`;
    return {
      title: page > 1 ? `${heading}${order}, page ${page}` : `${heading}${order}`,
      description: `The blogs tagged ${tag}${sort === 'top' ? ', best rated first' : sort === 'new' ? ', newest first' : ', hottest first'}.`,
      path: paths.tag(tag, page, sort),
      feed: { title: heading, tag },
    };
  },
  loadError: BLOG_LIST_LOAD_ERROR,
  NotFound: TagDoesNotExist,
};
