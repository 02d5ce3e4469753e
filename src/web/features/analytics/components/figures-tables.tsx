import type { ReactNode } from 'react';
import { Table } from 'react-bootstrap';
import { ANALYTICS_SOURCE_LABELS, type BlogAnalytics } from '../../../../shared/analytics-schema';
import { BarChart } from './bar-chart';
// The tables' styles (captions above, the small and striped tables) come with the screens that use them.
import '../../../styles/bootstrap-tables.scss';

type Report = Omit<BlogAnalytics, 'blogId' | 'title'>;

/**
 * A small table with a caption; "None yet" when it has no rows. A `wide` one (more columns than a
 * phone's width holds) scrolls inside a box of its own, which the keyboard can reach, so the page
 * does not scroll sideways.
 */
export function FiguresTable({ caption, headings, rows, wide = false }: { caption: string; headings: readonly string[]; rows: ReactNode[][]; wide?: boolean }) {
  const table = (
    <Table size="sm" striped className="mb-4">
      <caption className="caption-top">{caption}</caption>
      <thead>
        <tr>
          {headings.map((heading, i) => (
            <th key={heading} scope="col" className={i > 0 ? 'text-end' : undefined}>
              {heading}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.length === 0 ? (
          <tr>
            <td colSpan={headings.length}>None yet.</td>
          </tr>
        ) : (
          rows.map((cells, r) => (
            <tr key={r}>
              {cells.map((cell, i) => (i === 0 ? <td key={i}>{cell}</td> : <td key={i} className="text-end">{cell}</td>))}
            </tr>
          ))
        )}
      </tbody>
    </Table>
  );
  if (!wide) return table;
  return (
    <div className="table-responsive" tabIndex={0} role="region" aria-label={caption}>
      {table}
    </div>
  );
}

/** What the blog's and the site's pages share: totals, views per day (chart and table), referrers, sources and campaigns. */
export function ReportFigures({ report }: { report: Report }) {
  return (
    <>
      <dl className="row mb-3">
        <dt className="col-auto">Views</dt>
        <dd className="col-auto me-4">{report.totals.views}</dd>
        <dt className="col-auto">Visitors</dt>
        <dd className="col-auto">{report.totals.visitors}</dd>
      </dl>
      <h2 className="h5">Views per day</h2>
      <BarChart
        label="Views per day"
        days={report.days.map((day) => day.date)}
        series={[
          { name: 'Views', unit: 'views', one: 'view', values: report.days.map((day) => day.views) },
          { name: 'Visitors', unit: 'visitors', one: 'visitor', values: report.days.map((day) => day.visitors) },
        ]}
      />
      <details className="mb-4">
        <summary>Views and visitors per day as a table</summary>
        <FiguresTable caption="Views and visitors per day" headings={['Day', 'Views', 'Visitors']} rows={report.days.map((day) => [day.date, day.views, day.visitors])} />
      </details>
      <div className="row">
        <div className="col-md-6">
          <FiguresTable caption="Where readers came from" headings={['Source', 'Views']} rows={report.sources.map((row) => [ANALYTICS_SOURCE_LABELS[row.source], row.views])} />
        </div>
        <div className="col-md-6">
          <FiguresTable caption="Referrers" headings={['Site', 'Views']} rows={report.referrers.map((row) => [row.host, row.views])} />
        </div>
      </div>
      <FiguresTable caption="Campaigns (utm tags of the links)" headings={['Tag', 'Value', 'Views']} rows={report.campaigns.map((row) => [row.parameter, row.value, row.views])} />
      <p className="small text-body-secondary">
        Visitors are counted per day: the site forgets each day who visited, so a reader who comes back on another day is
        counted again. Today’s figures are at most a minute old; days are in UTC.
      </p>
    </>
  );
}
