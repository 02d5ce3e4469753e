import { Alert } from 'react-bootstrap';
import { Link, useSearchParams } from 'react-router';
import { paths } from '../../shared/paths';
import { LoadingPage } from '../components/loading-page';
import { RequireSession } from '../components/require-session';
import { useBlogAnalytics } from '../features/analytics/api/get-analytics';
import { ReportFigures } from '../features/analytics/components/figures-tables';
import { RangePicker, rangeFromSearch } from '../features/analytics/components/range-picker';
import { SITE_DESCRIPTION } from '../lib/page-meta';
import type { Screen } from '../lib/screen';

const TITLE = 'Blog statistics';
const today = () => new Date().toISOString().slice(0, 10);

/**
 * /analytics/blog?id= : one blog's views, visitors, referrers and where its readers came from, for
 * its author. Like the other signed-in screens it renders once the session is known.
 */
function BlogAnalyticsPage() {
  return <RequireSession what="see your blog’s statistics">{() => <BlogFigures />}</RequireSession>;
}

function BlogFigures() {
  const [search] = useSearchParams();
  const id = search.get('id') ?? '';
  const range = rangeFromSearch(search, today());
  const analytics = useBlogAnalytics(id, range);
  if (analytics.isPending) return <LoadingPage />;
  if (analytics.isError) return <Alert variant="danger">The statistics could not be loaded. {analytics.error.message}</Alert>;
  const blog = analytics.data;
  return (
    <div className="mx-auto" style={{ maxWidth: 960 }}>
      <h1 className="h3 mb-2">{TITLE}</h1>
      <p className="mb-4">
        <Link to={paths.viewBlog(blog.blogId)}>{blog.title}</Link>
      </p>
      <RangePicker range={range} linkTo={(next) => paths.blogAnalytics(id, next)} hidden={{ id }} />
      <ReportFigures report={blog} />
    </div>
  );
}

export const blogAnalyticsScreen: Screen = {
  cache: 'never',
  Component: BlogAnalyticsPage,
  meta: ({ url }) => ({ title: TITLE, description: SITE_DESCRIPTION, path: paths.blogAnalytics(url.searchParams.get('id') ?? '') }),
  loadError: 'The statistics could not be loaded.',
};
