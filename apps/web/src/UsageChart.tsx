// Cost per bucket as bars, drawn as inline SVG: a handful of rectangles need no chart library.
import type { UsageReport } from '@modelgate/core';
import { formatCredits } from './credits.js';
import { BUCKET_NAMES, bucketCosts, bucketLabel } from './usage-figures.js';

/** The drawing's own units; the SVG scales them to fit its box. */
const WIDTH = 600;
const HEIGHT = 140;
const LABEL_SPACE = 18;
const GAP = 4;
/** More labels than this under the bars would overlap. */
const MAX_LABELS = 8;

/** One bar per bucket of the report, its height the bucket's cost against the highest. */
export function UsageChart({ report }: { report: UsageReport }) {
  const bars = bucketCosts(report);
  const per = BUCKET_NAMES[report.bucket_width];
  const highest = Math.max(0, ...bars.map((bar) => bar.cost));
  const slot = WIDTH / Math.max(1, bars.length);
  const plot = HEIGHT - LABEL_SPACE;
  const labelEvery = Math.ceil(bars.length / MAX_LABELS);
  const summary = `Cost per ${per} in credits (UTC), ${bars.length} ${per}s; highest ${formatCredits(highest, 2)}.`;

  return (
    <figure className="usage-chart">
      <svg
        data-testid="usage-chart"
        role="img"
        aria-label={summary}
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
      >
        {bars.map((bar, i) => {
          const height = highest > 0 ? (bar.cost / highest) * plot : 0;
          const label = bucketLabel(bar.start, report.bucket_width);
          return (
            <g key={bar.start}>
              <rect
                className="bar"
                x={i * slot + GAP / 2}
                y={plot - height}
                width={slot - GAP}
                height={height}
              >
                <title>{`${label}: ${formatCredits(bar.cost, 2)} credits`}</title>
              </rect>
              {i % labelEvery === 0 && (
                <text x={i * slot + slot / 2} y={HEIGHT - 4} textAnchor="middle">
                  {label}
                </text>
              )}
            </g>
          );
        })}
        <line className="axis" x1={0} x2={WIDTH} y1={plot} y2={plot} />
      </svg>
      {/* The chart's label, for the eye: read once, as the image's name. */}
      <figcaption aria-hidden="true">{summary}</figcaption>
    </figure>
  );
}
