import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';

export interface ChartSeries {
  /** As a heading: 'Views'. */
  name: string;
  /** After a figure: 'views'. */
  unit: string;
  /** After 1: 'view'. */
  one: string;
  /** One per day of the chart's days; null where the day has no figure. */
  values: readonly (number | null)[];
}

/** Plot height and the bands above (room for the top line's label) and below (the dated ticks), in CSS px. */
const HEIGHT = 200;
const TOP = 10;
const BOTTOM = 30;
const PLOT = HEIGHT - TOP - BOTTOM;
/** The y axis's labels, in an SVG of their own so the plot can stretch without scaling its text. */
const GUTTER = 44;
/** At least 11 px on a phone: the SVGs have no viewBox, so a font size is CSS pixels at every width. */
const FONT = 12;

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
/** "Mar 10" from 2026-03-10, the same on the server and in every browser (no locale, no time zone). */
const shortDay = (date: string) => `${MONTHS[Number(date.slice(5, 7)) - 1]} ${Number(date.slice(8, 10))}`;
const longDay = (date: string) => `${shortDay(date)}, ${date.slice(0, 4)}`;

/** The y axis's top: 1, 2, 2.5 or 5 times a power of ten at or above the largest value. */
export function niceMax(max: number): number {
  if (max <= 4) return Math.max(1, Math.ceil(max));
  const power = 10 ** Math.floor(Math.log10(max));
  return [1, 2, 2.5, 5, 10].map((step) => step * power).find((top) => top >= max)!;
}

/** Which days get a dated tick: about five whatever the range (four or more from a week up), the first always. */
export function tickDays(count: number): number[] {
  const every = Math.max(1, Math.ceil(count / 5));
  const ticks: number[] = [];
  for (let i = 0; i < count; i += every) ticks.push(i);
  return ticks;
}

const figureOf = (value: number | null, series: ChartSeries) => (value === null ? 'no figure' : `${value} ${value === 1 ? series.one : series.unit}`);

/**
 * A day's figures over a range, drawn as SVG on the server like the rest of the page (no chart
 * library): the first series as bars, a second as a line. Dated ticks along the bottom and the
 * scale on the left, in CSS pixels (no viewBox), so the text keeps its size on a phone. Each day is
 * one keyboard stop in turn (Tab to the chart, then the arrow keys, Home and End) whose name is
 * its date and figures; the day pointed at or focused is written above the chart. A range of one
 * day is its figures as text. The same figures are in a table beside the chart.
 */
export function BarChart({ label, days, series }: { label: string; days: readonly string[]; series: readonly ChartSeries[] }) {
  const captionId = useId();
  const [active, setActive] = useState<number | null>(null);
  const [stop, setStop] = useState<number | null>(null);
  const targets = useRef<(SVGRectElement | null)[]>([]);
  const count = days.length;
  const tabStop = stop ?? count - 1;
  // React sets an SVG element's `tabIndex` prop as a `tabIndex` attribute, which SVG (case-sensitive)
  // ignores; the server's markup is right (the HTML parser lowercases it), and the property is right.
  useEffect(() => {
    targets.current.forEach((target, i) => {
      if (target) target.tabIndex = i === tabStop ? 0 : -1;
    });
  }, [tabStop, count]);

  if (count <= 1) {
    return (
      <figure className="mb-4">
        <figcaption className="small text-body-secondary mb-1">{label}</figcaption>
        <div className="card d-inline-block">
          <div className="card-body py-2">
            <p className="mb-1 fw-semibold">{days[0] ? longDay(days[0]) : 'No days'}</p>
            <dl className="row mb-0">
              {series.map((one) => (
                <div key={one.name} className="col-auto">
                  <dt className="small fw-normal text-body-secondary">{one.name}</dt>
                  <dd className="fs-4 mb-0">{one.values[0] ?? '–'}</dd>
                </div>
              ))}
            </dl>
          </div>
        </div>
      </figure>
    );
  }

  const values = series.flatMap((one) => one.values.filter((value): value is number => value !== null));
  const top = niceMax(Math.max(0, ...values));
  const gridlines = top % 2 === 0 || top >= 5 ? [0, top / 2, top] : [0, top];
  const yOf = (value: number) => TOP + PLOT - (value / top) * PLOT;
  const step = 100 / count;
  const centre = (i: number) => (i + 0.5) * step;
  const [bars, line] = series;
  const dayName = (i: number) => `${longDay(days[i]!)}: ${series.map((one) => figureOf(one.values[i] ?? null, one)).join(', ')}`;
  const totals = series.map((one) => figureOf(one.values.reduce<number>((sum, value) => sum + (value ?? 0), 0), one)).join(', ');

  const move = (event: KeyboardEvent) => {
    const keys: Record<string, number> = { ArrowLeft: tabStop - 1, ArrowRight: tabStop + 1, ArrowDown: tabStop - 1, ArrowUp: tabStop + 1, Home: 0, End: count - 1 };
    const next = keys[event.key];
    if (next === undefined) return;
    event.preventDefault();
    const to = Math.min(count - 1, Math.max(0, next));
    setStop(to);
    setActive(to);
    targets.current[to]?.focus();
  };

  return (
    <figure className="mb-4">
      <figcaption id={captionId} className="small text-body-secondary mb-1">
        {label}
      </figcaption>
      {line && (
        <p className="small mb-1">
          <span className="text-primary" aria-hidden="true">
            ■
          </span>{' '}
          {bars!.name}{' '}
          <span className="ms-2" aria-hidden="true">
            ●
          </span>{' '}
          {line.name}
        </p>
      )}
      <p className="small mb-1 analytics-chart-readout" aria-hidden="true">
        {active === null ? `${totals} from ${longDay(days[0]!)} to ${longDay(days.at(-1)!)}` : dayName(active)}
      </p>
      <div className="d-flex">
        <svg width={GUTTER} height={HEIGHT} aria-hidden="true" className="flex-shrink-0">
          {gridlines.map((value) => (
            <text key={value} x={GUTTER - 6} y={yOf(value) + FONT / 3} textAnchor="end" fontSize={FONT} fill="currentColor">
              {value}
            </text>
          ))}
        </svg>
        <svg
          width="100%"
          height={HEIGHT}
          role="group"
          aria-labelledby={captionId}
          aria-describedby={`${captionId}-summary`}
          className="analytics-chart flex-grow-1"
          style={{ minWidth: 0 }}
          onKeyDown={move}
          onMouseLeave={() => setActive(null)}
        >
          <desc id={`${captionId}-summary`}>{`${totals} from ${longDay(days[0]!)} to ${longDay(days.at(-1)!)}; the arrow keys go from day to day.`}</desc>
          {gridlines.map((value) => (
            <line key={value} x1="0" x2="100%" y1={yOf(value)} y2={yOf(value)} stroke="currentColor" strokeOpacity={value === 0 ? 0.5 : 0.15} />
          ))}
          {active !== null && <rect x={`${active * step}%`} y={TOP} width={`${step}%`} height={PLOT} fill="currentColor" fillOpacity={0.08} />}
          {bars &&
            bars.values.map((value, i) =>
              value === null || value === 0 ? null : (
                <rect key={days[i]} x={`${(i + 0.15) * step}%`} width={`${step * 0.7}%`} y={yOf(value)} height={TOP + PLOT - yOf(value)} fill="currentColor" className="text-primary" />
              ),
            )}
          {line &&
            line.values.map((value, i) => {
              const next = line.values[i + 1];
              return value === null ? null : (
                <g key={days[i]}>
                  {next !== null && next !== undefined && <line x1={`${centre(i)}%`} x2={`${centre(i + 1)}%`} y1={yOf(value)} y2={yOf(next)} stroke="currentColor" strokeWidth={2} />}
                  <circle cx={`${centre(i)}%`} cy={yOf(value)} r={active === i ? 5 : 3} fill="currentColor" />
                </g>
              );
            })}
          {tickDays(count).map((i) => {
            const anchor = i === 0 ? 'start' : centre(i) > 90 ? 'end' : 'middle';
            return (
              <g key={days[i]} aria-hidden="true">
                <line x1={`${centre(i)}%`} x2={`${centre(i)}%`} y1={TOP + PLOT} y2={TOP + PLOT + 4} stroke="currentColor" strokeOpacity={0.5} />
                <text x={i === 0 ? '0' : `${centre(i)}%`} y={HEIGHT - 8} textAnchor={anchor} fontSize={FONT} fill="currentColor" className="analytics-chart-tick">
                  {shortDay(days[i]!)}
                </text>
              </g>
            );
          })}
          {days.map((day, i) => (
            <rect
              key={day}
              ref={(element) => {
                targets.current[i] = element;
              }}
              x={`${i * step}%`}
              y={TOP}
              width={`${step}%`}
              height={PLOT}
              fill="transparent"
              role="img"
              aria-label={dayName(i)}
              tabIndex={i === tabStop ? 0 : -1}
              stroke={active === i ? 'currentColor' : 'none'}
              strokeWidth={2}
              className="analytics-chart-day"
              onMouseEnter={() => setActive(i)}
              onFocus={() => {
                setStop(i);
                setActive(i);
              }}
              onBlur={() => setActive(null)}
            />
          ))}
        </svg>
      </div>
    </figure>
  );
}
