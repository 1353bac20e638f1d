// Sums of usage results, and a report as CSV: the gateway's report sums groups beyond its limit and the range's totals
// with these, and clients sum a report's buckets into series with the same ones, so a figure
// added to `UsageResult` is summed everywhere by changing one function.
import type { UsageReport, UsageResult } from './generated/types.gen.js';

/** Quota units per credit: a result's `cost` is its `units` in credits. */
const UNITS_PER_CREDIT = 1_000_000;

/**
 * A usage result with every figure 0 and no grouping field: the start of a sum.
 *
 * @example
 * const total = report.data.flatMap((b) => b.results).reduce(addUsage, emptyUsage());
 */
export function emptyUsage(): UsageResult {
  return {
    object: 'usage_result',
    key_id: null,
    model: null,
    kind: null,
    requests: 0,
    input_tokens: 0,
    cache_read_tokens: 0,
    cache_write_5m_tokens: 0,
    cache_write_1h_tokens: 0,
    output_tokens: 0,
    video_seconds: 0,
    units: 0,
    cost: 0,
  };
}

/**
 * Adds `result`'s figures into `into` (its grouping fields stay as they are) and returns `into`;
 * `cost` is recomputed from the summed units, so float error never accumulates.
 *
 * @example
 * const perModel = new Map<string, UsageResult>();
 * for (const r of bucket.results) addUsage(perModel.get(r.model ?? '') ?? emptyUsage(), r);
 */
export function addUsage(into: UsageResult, result: UsageResult): UsageResult {
  into.requests += result.requests;
  into.input_tokens += result.input_tokens;
  into.cache_read_tokens += result.cache_read_tokens;
  into.cache_write_5m_tokens += result.cache_write_5m_tokens;
  into.cache_write_1h_tokens += result.cache_write_1h_tokens;
  into.output_tokens += result.output_tokens;
  into.video_seconds += result.video_seconds;
  into.units += result.units;
  into.cost = into.units / UNITS_PER_CREDIT;
  return into;
}

/** The CSV columns, in order: the bucket, the grouping fields, then every figure. */
const CSV_COLUMNS = [
  'bucket_start',
  'bucket_end',
  'key_id',
  'model',
  'kind',
  'team_id',
  'requests',
  'input_tokens',
  'cache_read_tokens',
  'cache_write_5m_tokens',
  'cache_write_1h_tokens',
  'output_tokens',
  'video_seconds',
  'units',
  'cost',
] as const;

type Column = (typeof CSV_COLUMNS)[number];

/**
 * A usage report as CSV (RFC 4180, a header row, `\n` line ends): a row per bucket and group with
 * usage, times in ISO 8601 (UTC). A grouping field the report is split by reads `other` on the
 * result that sums the groups beyond `group_limit`; one it is not split by stays empty.
 *
 * @example
 * const report = await client.usage.retrieve({ bucket_width: '1d', group_by: ['model'] });
 * writeFileSync('usage.csv', usageCsv(report));
 */
export function usageCsv(report: UsageReport): string {
  const rows: string[] = [CSV_COLUMNS.join(',')];
  for (const bucket of report.data) {
    const times = {
      bucket_start: new Date(bucket.start_time * 1000).toISOString(),
      bucket_end: new Date(bucket.end_time * 1000).toISOString(),
    };
    for (const result of bucket.results) {
      rows.push(CSV_COLUMNS.map((column) => csvCell(report, result, times, column)).join(','));
    }
  }
  return `${rows.join('\n')}\n`;
}

function csvCell(
  report: UsageReport,
  result: UsageResult,
  times: Record<'bucket_start' | 'bucket_end', string>,
  column: Column,
): string {
  if (column === 'bucket_start' || column === 'bucket_end') return times[column];
  if (column === 'key_id' || column === 'model' || column === 'kind' || column === 'team_id') {
    if (result.other && report.group_by.includes(column)) return 'other';
    return csvText(String(result[column] ?? ''));
  }
  return String(result[column]);
}

/** A field quoted when it holds a comma, a quote or a line break. */
function csvText(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}
