// A usage report (already aggregated by the gateway) as chart series and CSV: one series per group
// (a key or a model), one value per bucket.
import type { UsageReport, UsageResult } from '@modelgate/core';

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

function add(into: UsageResult, result: UsageResult): void {
  into.requests += result.requests;
  into.input_tokens += result.input_tokens;
  into.cache_read_tokens += result.cache_read_tokens;
  into.cache_write_5m_tokens += result.cache_write_5m_tokens;
  into.cache_write_1h_tokens += result.cache_write_1h_tokens;
  into.output_tokens += result.output_tokens;
  into.video_seconds += result.video_seconds;
  into.units += result.units;
  into.cost = into.units / 1_000_000;
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
          total: {
            ...result,
            requests: 0,
            input_tokens: 0,
            cache_read_tokens: 0,
            cache_write_5m_tokens: 0,
            cache_write_1h_tokens: 0,
            output_tokens: 0,
            video_seconds: 0,
            units: 0,
            cost: 0,
          },
        };
        series.set(label, one);
      }
      one.costs[i] = (one.costs[i] ?? 0) + result.cost;
      add(one.total, result);
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
