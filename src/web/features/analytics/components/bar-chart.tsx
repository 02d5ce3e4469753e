import { useId } from 'react';

export interface ChartPoint {
  date: string;
  value: number;
}

const WIDTH = 720;
const HEIGHT = 200;
const LEFT = 48;
const BOTTOM = 24;
const TOP = 12;

/**
 * A bar per day, drawn as SVG on the server like the rest of the page (no chart library, no
 * script). Readable without colour: the largest value and the first and last days are written on
 * the axes, each bar names its day and value (its `<title>`), and the same figures are in a table
 * below for screen readers and for anyone who prefers one.
 */
export function BarChart({ label, unit, points }: { label: string; unit: string; points: readonly ChartPoint[] }) {
  const titleId = useId();
  const max = Math.max(1, ...points.map((point) => point.value));
  const plotWidth = WIDTH - LEFT - 8;
  const plotHeight = HEIGHT - TOP - BOTTOM;
  const step = plotWidth / Math.max(1, points.length);
  const barWidth = Math.max(1, step * 0.8);
  const total = points.reduce((sum, point) => sum + point.value, 0);
  return (
    <figure className="mb-4">
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        width="100%"
        role="img"
        aria-labelledby={titleId}
        className="analytics-chart"
        style={{ maxHeight: 240 }}
      >
        <title id={titleId}>{`${label}: ${total} ${unit} from ${points[0]?.date ?? ''} to ${points.at(-1)?.date ?? ''}, at most ${max} in a day`}</title>
        <line x1={LEFT} y1={TOP} x2={LEFT} y2={TOP + plotHeight} stroke="currentColor" strokeOpacity={0.5} />
        <line x1={LEFT} y1={TOP + plotHeight} x2={WIDTH - 8} y2={TOP + plotHeight} stroke="currentColor" strokeOpacity={0.5} />
        <text x={LEFT - 6} y={TOP + 10} textAnchor="end" fontSize={12} fill="currentColor">
          {max}
        </text>
        <text x={LEFT - 6} y={TOP + plotHeight} textAnchor="end" fontSize={12} fill="currentColor">
          0
        </text>
        {points.map((point, i) => {
          const height = (point.value / max) * plotHeight;
          return (
            <rect key={point.date} x={LEFT + i * step + (step - barWidth) / 2} y={TOP + plotHeight - height} width={barWidth} height={height} fill="currentColor" className="text-primary">
              <title>{`${point.date}: ${point.value} ${unit}`}</title>
            </rect>
          );
        })}
        {points.length > 0 && (
          <>
            <text x={LEFT} y={HEIGHT - 6} fontSize={12} fill="currentColor">
              {points[0]!.date}
            </text>
            <text x={WIDTH - 8} y={HEIGHT - 6} textAnchor="end" fontSize={12} fill="currentColor">
              {points.at(-1)!.date}
            </text>
          </>
        )}
      </svg>
      <figcaption className="small text-body-secondary">{label}</figcaption>
    </figure>
  );
}
