// A usage report (already aggregated by the gateway) as chart series and CSV: one series per group
// (a key or a model), one value per bucket.
import { addUsage, emptyUsage, type UsageReport, type UsageResult } from '@modelgate/core';

export type GroupBy = 'key_id' | 'model';

export interface Series {
  /** The group's label: `key 42`, or the model's id. */
  label: string;
  /** Cost in credits per bucket, in the report's bucket order. */
  costs: number[];
  total: UsageResult;
}

function labelOf(result: UsageResult, by: GroupBy): string {
  if (result.other) return by === 'key_id' ? 'other keys' : 'other models';
  return by === 'key_id' ? `key ${result.key_id}` : (result.model ?? 'no model');
}

/** A grouping field's CSV cell: `other` on the result that sums the groups beyond the limit. */
function groupCell(report: UsageReport, r: UsageResult, field: 'key_id' | 'model'): string {
  if (r.other && report.group_by.includes(field)) return 'other';
  return csvText(String(r[field] ?? ''));
}

/** A result's figures alone: every field but the grouping ones. */
function figuresOf({ key_id, model, kind, other, ...figures }: UsageResult) {
  return figures;
}

/** The groups of the report, the most expensive first. */
export function seriesOf(report: UsageReport, by: GroupBy): Series[] {
  const series = new Map<string, Series>();
  report.data.forEach((bucket, i) => {
    for (const result of bucket.results) {
      const label = labelOf(result, by);
      let one = series.get(label);
      if (!one) {
        one = {
          label,
          costs: report.data.map(() => 0),
          // The group's fields (key, model, kind, other) with every figure at 0, to sum into.
          total: { ...result, ...figuresOf(emptyUsage()) },
        };
        series.set(label, one);
      }
      one.costs[i] = (one.costs[i] ?? 0) + result.cost;
      addUsage(one.total, result);
    }
  });
  return [...series.values()].sort((a, b) => b.total.units - a.total.units);
}

const CSV_COLUMNS = [
  'bucket_start',
  'bucket_end',
  'key_id',
  'model',
  'requests',
  'input_tokens',
  'output_tokens',
  'video_seconds',
  'units',
  'cost',
] as const;

/** Every bucket's results as CSV rows (times as ISO 8601, UTC), with a header row. */
export function reportCsv(report: UsageReport): string {
  const rows: string[] = [CSV_COLUMNS.join(',')];
  for (const bucket of report.data) {
    for (const r of bucket.results) {
      const start = new Date(bucket.start_time * 1000).toISOString();
      const end = new Date(bucket.end_time * 1000).toISOString();
      const cells = [
        start,
        end,
        groupCell(report, r, 'key_id'),
        groupCell(report, r, 'model'),
        r.requests,
        r.input_tokens,
        r.output_tokens,
        r.video_seconds,
        r.units,
        r.cost,
      ];
      rows.push(cells.join(','));
    }
  }
  return `${rows.join('\n')}\n`;
}

/** A field quoted when it holds a comma, a quote or a line break. */
function csvText(text: string): string {
  return /[",\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}
