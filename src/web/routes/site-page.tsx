import { useParams } from 'react-router';
import { STATIC_PAGE } from '../../shared/cache-tags';
import { paths } from '../../shared/paths';
import { sitePageQueryOptions, useSitePage } from '../features/site-pages/api/site-pages';
import { LoadingPage } from '../components/loading-page';
import { loadQuery } from '../lib/load-query';
import { SITE_DESCRIPTION } from '../lib/page-meta';
import type { Screen } from '../lib/screen';

const slugOf = (url: URL) => decodeURIComponent(url.pathname.replace(/^\/page\//, ''));

/** /page/:slug: a page the owner wrote (issue 58), its Markdown rendered and sanitised by the server as a blog's is. */
function SitePagePage() {
  const { slug = '' } = useParams();
  const { data: page } = useSitePage(slug);
  if (!page) return <LoadingPage />;
  return (
    <article className="mx-auto" style={{ maxWidth: 760 }}>
      <h1>{page.title}</h1>
      <div className="blog-body" dangerouslySetInnerHTML={{ __html: page.html }} />
    </article>
  );
}

export const sitePageScreen: Screen = {
  scriptOnFirstTouch: true,
  cache: STATIC_PAGE,
  Component: SitePagePage,
  loadError: 'The page could not be loaded.',
  loader: (queryClient) => async ({ params }) => {
    await loadQuery(queryClient, sitePageQueryOptions(params.slug ?? ''));
    return null;
  },
  meta: ({ url, queryClient }) => {
    const slug = slugOf(url);
    const page = queryClient.getQueryData(sitePageQueryOptions(slug).queryKey);
    return { title: page?.title ?? 'Page', description: SITE_DESCRIPTION, path: paths.sitePage(slug) };
  },
};
