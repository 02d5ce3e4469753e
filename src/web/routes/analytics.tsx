import { Alert } from 'react-bootstrap';
import { Link, useSearchParams } from 'react-router';
import { paths } from '../../shared/paths';
import { LoadingPage } from '../components/loading-page';
import { moderatorsScreen, ModeratorsOnlyPage } from '../components/moderators-only-page';
import { siteAnalyticsCsvUrl, useSiteAnalytics } from '../features/analytics/api/get-analytics';
import { BarChart } from '../features/analytics/components/bar-chart';
import { FiguresTable, ReportFigures } from '../features/analytics/components/figures-tables';
import { RangePicker, rangeFromSearch } from '../features/analytics/components/range-picker';

const TITLE = 'Site statistics';
const today = () => new Date().toISOString().slice(0, 10);

/** /analytics: the site's figures for the owner and administrators (moderators until roles land). */
function SiteAnalyticsPage() {
  return (
    <ModeratorsOnlyPage title={TITLE} maxWidth={960}>
      <SiteFigures />
    </ModeratorsOnlyPage>
  );
}

function SiteFigures() {
  const [search] = useSearchParams();
  const range = rangeFromSearch(search, today());
  const analytics = useSiteAnalytics(range);
  if (analytics.isPending) return <LoadingPage />;
  if (analytics.isError) return <Alert variant="danger">The figures could not be loaded. {analytics.error.message}</Alert>;
  const site = analytics.data;
  return (
    <>
      <RangePicker range={range} linkTo={(next) => paths.analytics(next)} />
      <p>
        <a href={siteAnalyticsCsvUrl(range)} download>
          Download these figures as CSV
        </a>
      </p>
      <ReportFigures report={site} />
      <FiguresTable
        caption="Top blogs"
        headings={['Blog', 'Views', 'Visitors']}
        rows={site.topBlogs.map((blog) => [<Link key={blog.id} to={paths.blogAnalytics(blog.id)}>{blog.title}</Link>, blog.views, blog.visitors])}
      />
      <h2 className="h5">Readers over time</h2>
      <BarChart label="E-mail subscribers" unit="subscribers" points={site.readers.map((day) => ({ date: day.date, value: day.emailSubscribers ?? 0 }))} />
      <BarChart label="Fediverse followers" unit="followers" points={site.readers.map((day) => ({ date: day.date, value: day.fediverseFollowers ?? 0 }))} />
      <BarChart label="Feed subscribers (as feed readers report them)" unit="subscribers" points={site.readers.map((day) => ({ date: day.date, value: day.feedSubscribers }))} />
      <FiguresTable
        caption="Readers per day"
        headings={['Day', 'E-mail subscribers', 'Fediverse followers', 'Feed subscribers', 'Feed fetchers']}
        rows={site.readers.map((day) => [day.date, day.emailSubscribers ?? '–', day.fediverseFollowers ?? '–', day.feedSubscribers, day.feedFetchers])}
      />
    </>
  );
}

export const analyticsScreen = moderatorsScreen(SiteAnalyticsPage, TITLE, paths.analytics());
