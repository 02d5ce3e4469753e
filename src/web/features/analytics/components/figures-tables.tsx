import type { ReactNode } from 'react';
import { Table } from 'react-bootstrap';
import { ANALYTICS_SOURCE_LABELS, type BlogAnalytics } from '../../../../shared/analytics-schema';
import { BarChart } from './bar-chart';

type Report = Omit<BlogAnalytics, 'blogId' | 'title'>;

/** A small table with a caption; "None yet" when it has no rows. */
export function FiguresTable({ caption, headings, rows }: { caption: string; headings: readonly string[]; rows: ReactNode[][] }) {
  return (
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
      <BarChart label="Views per day" unit="views" points={report.days.map((day) => ({ date: day.date, value: day.views }))} />
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
        counted again. Figures are brought up to date every few minutes; days are in UTC.
      </p>
    </>
  );
}
