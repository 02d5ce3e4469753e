import { Form } from 'react-bootstrap';
import { Link } from 'react-router';
import { addDays, ANALYTICS_RANGES, analyticsRangeQuerySchema } from '../../../../shared/analytics-schema';
import { EARLIEST_DAY } from '../../../../shared/calendar-day';
import type { AnalyticsRange } from '../api/get-analytics';

/** The range a page's URL asks for: `?days=7|30|90`, or a valid `from`/`to`; else the last 30 days. */
export function rangeFromSearch(search: URLSearchParams, today: string): AnalyticsRange & { days?: number } {
  const custom = analyticsRangeQuerySchema.safeParse({ from: search.get('from') ?? undefined, to: search.get('to') ?? undefined });
  if (custom.success && custom.data.from && custom.data.to) return { from: custom.data.from, to: custom.data.to };
  const days = (ANALYTICS_RANGES as readonly number[]).includes(Number(search.get('days'))) ? Number(search.get('days')) : 30;
  return { from: addDays(today, -(days - 1)), to: today, days };
}

/**
 * 7, 30 or 90 days as links, and a custom range as a plain GET form: both change the URL, so the
 * page works before (and without) its script.
 */
export function RangePicker({ range, linkTo, hidden = {} }: { range: AnalyticsRange & { days?: number }; linkTo: (range: Record<string, string>) => string; hidden?: Record<string, string> }) {
  return (
    <div className="d-flex flex-wrap align-items-end gap-3 mb-4">
      <nav aria-label="Range">
        <ul className="nav nav-pills">
          {ANALYTICS_RANGES.map((days) => (
            <li className="nav-item" key={days}>
              <Link className={`nav-link${range.days === days ? ' active' : ''}`} aria-current={range.days === days ? 'page' : undefined} to={linkTo({ days: String(days) })}>
                {days} days
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <Form method="get" className="d-flex flex-wrap align-items-end gap-2">
        {Object.entries(hidden).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        <Form.Group controlId="analytics-from">
          <Form.Label className="small mb-0">From</Form.Label>
          <Form.Control type="date" name="from" defaultValue={range.from} min={EARLIEST_DAY} size="sm" />
        </Form.Group>
        <Form.Group controlId="analytics-to">
          <Form.Label className="small mb-0">To</Form.Label>
          <Form.Control type="date" name="to" defaultValue={range.to} min={EARLIEST_DAY} size="sm" />
        </Form.Group>
        <button type="submit" className="btn btn-outline-primary btn-sm">
          Show
        </button>
      </Form>
    </div>
  );
}
