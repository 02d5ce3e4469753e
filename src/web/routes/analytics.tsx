import { Alert } from 'react-bootstrap';
import { Link, useSearchParams } from 'react-router';
import type { SiteAnalytics } from '../../shared/analytics-schema';
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
      <ReadersChart label="E-mail subscribers" unit="subscribers" one="subscriber" site={site} value={(day) => day.emailSubscribers} />
      <ReadersChart label="Fediverse followers" unit="followers" one="follower" site={site} value={(day) => day.fediverseFollowers} />
      <ReadersChart label="Feed subscribers (as feed readers report them)" unit="subscribers" one="subscriber" site={site} value={(day) => day.feedSubscribers} />
      <FiguresTable
        caption="Readers per day"
        wide
        headings={['Day', 'E-mail subscribers', 'Fediverse followers', 'Feed subscribers', 'Feed fetchers']}
        rows={site.readers.map((day) => [day.date, day.emailSubscribers ?? '–', day.fediverseFollowers ?? '–', day.feedSubscribers, day.feedFetchers])}
      />
    </>
  );
}

/** One of the readers' figures over every day of the range (a day without its snapshot has no bar). */
function ReadersChart({ label, unit, one, site, value }: { label: string; unit: string; one: string; site: SiteAnalytics; value: (day: SiteAnalytics['readers'][number]) => number | null }) {
  const byDay = new Map(site.readers.map((day) => [day.date, value(day)]));
  const days = site.days.map((day) => day.date);
  return <BarChart label={label} days={days} series={[{ name: label, unit, one, values: days.map((day) => byDay.get(day) ?? null) }]} />;
}

export const analyticsScreen = moderatorsScreen(SiteAnalyticsPage, TITLE, paths.analytics());
