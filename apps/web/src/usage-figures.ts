// What the usage section shows, computed from a report: the ranges it offers, the query of each,
// cost per bucket for the chart, figures per model for the table.
import type { UsageBucketWidth, UsageQuery, UsageReport, UsageResult } from '@modelgate/core';

/** The ranges offered: whole UTC buckets ending with the current one. */
export const USAGE_RANGES = [
  { id: '7d', label: 'Last 7 days', bucket_width: '1d', buckets: 7 },
  { id: '24h', label: 'Last 24 hours', bucket_width: '1h', buckets: 24 },
] as const satisfies readonly {
  id: string;
  label: string;
  bucket_width: UsageBucketWidth;
  buckets: number;
}[];

export type UsageRange = (typeof USAGE_RANGES)[number];

const BUCKET_SECONDS: Record<UsageBucketWidth, number> = { '1h': 3_600, '1d': 86_400 };

/** What one bucket of a width is called: "hour", "day". */
export const BUCKET_NAMES: Record<UsageBucketWidth, string> = { '1h': 'hour', '1d': 'day' };

/**
 * The query for `range` at `nowMs`, split by model. The range is given whole buckets here (the
 * gateway would widen a ragged one), so the chart always has `range.buckets` bars.
 *
 * @example
 * usageQuery(USAGE_RANGES[0], Date.now()); // { bucket_width: '1d', group_by: ['model'], start_time, end_time }
 */
export function usageQuery(range: UsageRange, nowMs: number): UsageQuery {
  const width = BUCKET_SECONDS[range.bucket_width];
  const end = (Math.floor(nowMs / 1000 / width) + 1) * width;
  return {
    bucket_width: range.bucket_width,
    group_by: ['model'],
    start_time: end - range.buckets * width,
    end_time: end,
  };
}

export interface BucketCost {
  /** Unix seconds. */
  start: number;
  /** Credits spent in the bucket, every group together. */
  cost: number;
}

/** One bar per bucket of the report, oldest first. */
export function bucketCosts(report: UsageReport): BucketCost[] {
  return report.data.map((bucket) => ({
    start: bucket.start_time,
    cost: bucket.results.reduce((sum, result) => sum + result.cost, 0),
  }));
}

/** The report's figures per model over the whole range, the costliest first. */
export function modelTotals(report: UsageReport): UsageResult[] {
  const byModel = new Map<string | null, UsageResult>();
  for (const bucket of report.data) {
    for (const result of bucket.results) {
      const sum = byModel.get(result.model);
      byModel.set(result.model, sum ? addResults(sum, result) : result);
    }
  }
  return [...byModel.values()].sort((a, b) => b.cost - a.cost);
}

function addResults(a: UsageResult, b: UsageResult): UsageResult {
  return {
    ...a,
    requests: a.requests + b.requests,
    input_tokens: a.input_tokens + b.input_tokens,
    output_tokens: a.output_tokens + b.output_tokens,
    video_seconds: a.video_seconds + b.video_seconds,
    units: a.units + b.units,
    cost: a.cost + b.cost,
  };
}

/** A bucket's start as a short label, in UTC like the buckets: "Nov 25", or "14:00". */
export function bucketLabel(start: number, width: UsageBucketWidth): string {
  const date = new Date(start * 1000);
  return width === '1d'
    ? date.toLocaleDateString('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' })
    : date.toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit', timeZone: 'UTC' });
}
