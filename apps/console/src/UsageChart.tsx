// Cost per bucket as stacked bars, one colour per group, drawn as inline SVG: a few rectangles
// need no chart library.
import type { UsageReport } from '@modelgate/core';
import { formatCredits, formatTime } from './format.js';
import type { Series } from './usage-series.js';

const WIDTH = 800;
const HEIGHT = 220;
const LABELS = 20;
const MAX_LABELS = 8;
/** Eight colours told apart by most eyes (Okabe–Ito); further groups reuse them. */
const COLOURS = [
  '#0072b2',
  '#e69f00',
  '#009e73',
  '#cc79a7',
  '#56b4e9',
  '#d55e00',
  '#f0e442',
  '#000000',
];

export function colourOf(index: number): string {
  return COLOURS[index % COLOURS.length]!;
}

export function UsageChart({ report, series }: { report: UsageReport; series: Series[] }) {
  const buckets = report.data;
  const stackTotals = buckets.map((_, i) => series.reduce((sum, s) => sum + (s.costs[i] ?? 0), 0));
  const highest = Math.max(0, ...stackTotals);
  const slot = WIDTH / Math.max(1, buckets.length);
  const plot = HEIGHT - LABELS;
  const labelEvery = Math.ceil(buckets.length / MAX_LABELS);
  const per = report.bucket_width === '1h' ? 'hour' : 'day';
  const summary = `Cost per ${per} in credits (UTC), ${buckets.length} ${per}s, ${series.length} groups; highest ${formatCredits(highest)}.`;

  return (
    <figure className="usage-chart">
      <svg
        data-testid="usage-chart"
        role="img"
        aria-label={summary}
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
      >
        {buckets.map((bucket, i) => {
          let base = plot;
          const label = formatTime(bucket.start_time).slice(
            report.bucket_width === '1h' ? 11 : 5,
            report.bucket_width === '1h' ? 16 : 10,
          );
          return (
            <g key={bucket.start_time}>
              {series.map((s, j) => {
                const cost = s.costs[i] ?? 0;
                if (cost <= 0 || highest <= 0) return null;
                const height = Math.max(1, (cost / highest) * plot);
                base -= height;
                return (
                  <rect
                    key={s.label}
                    x={i * slot + 1}
                    y={base}
                    width={Math.max(1, slot - 2)}
                    height={height}
                    fill={colourOf(j)}
                    data-group={s.label}
                  >
                    <title>{`${formatTime(bucket.start_time)} ${s.label}: ${formatCredits(cost)} credits`}</title>
                  </rect>
                );
              })}
              {i % labelEvery === 0 && (
                <text x={i * slot + slot / 2} y={HEIGHT - 5} textAnchor="middle">
                  {label}
                </text>
              )}
            </g>
          );
        })}
        <line className="axis" x1={0} x2={WIDTH} y1={plot} y2={plot} />
      </svg>
      <figcaption aria-hidden="true">{summary}</figcaption>
    </figure>
  );
}
