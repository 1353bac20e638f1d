/**
 * Usage over time (`GET /v1/usage`): the ledger's usage rows summed per bucket of an hour or a day
 * (UTC), optionally split by key, model and kind. Every bucket of the range is listed, empty ones
 * too, so a chart needs no gap-filling; `totals` sums the whole range.
 */
import type { UsageBucket, UsageReport, UsageResult } from '@modelgate/core';
import { zUsageKind } from '@modelgate/core/zod';
import { type Kysely, sql } from 'kysely';
import { unitsToCredits } from '../billing/billing.js';
import type { DB } from '../db/schema.js';
import { badRequest } from '../errors/api-error.js';

export type BucketWidth = UsageReport['bucket_width'];
export type UsageGroup = UsageReport['group_by'][number];

const WIDTH_SECONDS: Record<BucketWidth, number> = { '1h': 3600, '1d': 86_400 };
/** A month of hours, a year of days: enough for any chart, bounded for the database. */
const MAX_BUCKETS: Record<BucketWidth, number> = { '1h': 744, '1d': 366 };
const DEFAULT_SPAN_SECONDS = 7 * 86_400;

export interface UsageQuery {
  startTime?: number;
  endTime?: number;
  bucketWidth: BucketWidth;
  groupBy: UsageGroup[];
  /** Only this key's rows; undefined = every key (administrators only: the route decides). */
  keyId?: number;
  model?: string;
}

interface Range {
  start: number;
  end: number;
  width: number;
}

/** The range widened to whole buckets; a 400 when it is empty or holds too many. */
export function bucketRange(query: UsageQuery, now: number): Range {
  const width = WIDTH_SECONDS[query.bucketWidth];
  const end = query.endTime ?? now;
  const start = query.startTime ?? Math.max(0, end - DEFAULT_SPAN_SECONDS);
  if (start >= end) {
    throw badRequest('start_time must be before end_time.', 'start_time', 'out_of_range');
  }
  const range = { start: start - (start % width), end: Math.ceil(end / width) * width, width };
  const buckets = (range.end - range.start) / width;
  const max = MAX_BUCKETS[query.bucketWidth];
  if (buckets > max) {
    throw badRequest(
      `A range holds at most ${max} buckets of ${query.bucketWidth} (this one: ${buckets}).`,
      'start_time',
      'out_of_range',
    );
  }
  return range;
}

/** One aggregated row; counts and sums arrive as strings or numbers depending on the driver. */
interface AggregateRow {
  bucket: number | string;
  key_id: number | string | null;
  model: string | null;
  kind: string | null;
  requests: number | string;
  input_tokens: number | string;
  cache_read_tokens: number | string;
  cache_write_5m_tokens: number | string;
  cache_write_1h_tokens: number | string;
  output_tokens: number | string;
  seconds: number | string;
  units: number | string;
}

/**
 * @example
 * const report = await usageReport(db, { bucketWidth: '1d', groupBy: ['model'], keyId: 42 }, now);
 */
export async function usageReport(
  db: Kysely<DB>,
  query: UsageQuery,
  now: number,
): Promise<UsageReport> {
  const range = bucketRange(query, now);
  const rows = await aggregate(db, query, range);
  const byBucket = new Map<number, UsageResult[]>();
  for (const row of rows) {
    const bucket = Number(row.bucket);
    const results = byBucket.get(bucket) ?? [];
    results.push(toResult(row));
    byBucket.set(bucket, results);
  }
  const data: UsageBucket[] = [];
  for (let start = range.start; start < range.end; start += range.width) {
    data.push({
      object: 'usage_bucket',
      start_time: start,
      end_time: start + range.width,
      results: byBucket.get(start) ?? [],
    });
  }
  return {
    object: 'usage_report',
    start_time: range.start,
    end_time: range.end,
    bucket_width: query.bucketWidth,
    group_by: query.groupBy,
    data,
    totals: sumOf(data.flatMap((bucket) => bucket.results)),
  };
}

function aggregate(db: Kysely<DB>, query: UsageQuery, range: Range): Promise<AggregateRow[]> {
  // A field the report is not grouped by is selected as null, so one statement serves every
  // grouping and positional GROUP BY stays the same.
  const grouped = (field: UsageGroup) =>
    query.groupBy.includes(field) ? sql.ref(`usage.${field}`) : sql`null`;
  const width = sql.lit(range.width);
  return sql<AggregateRow>`
    select (created_at / ${width}) * ${width} as bucket,
           ${grouped('key_id')} as key_id, ${grouped('model')} as model, ${grouped('kind')} as kind,
           count(*) as requests,
           coalesce(sum(input_tokens), 0) as input_tokens,
           coalesce(sum(cache_read_tokens), 0) as cache_read_tokens,
           coalesce(sum(cache_write_5m_tokens), 0) as cache_write_5m_tokens,
           coalesce(sum(cache_write_1h_tokens), 0) as cache_write_1h_tokens,
           coalesce(sum(output_tokens), 0) as output_tokens,
           coalesce(sum(seconds), 0) as seconds,
           coalesce(sum(units), 0) as units
    from usage
    where created_at >= ${range.start} and created_at < ${range.end}
      ${query.keyId === undefined ? sql`` : sql`and key_id = ${query.keyId}`}
      ${query.model === undefined ? sql`` : sql`and model = ${query.model}`}
    group by 1, 2, 3, 4
    order by 1, 2, 3, 4`
    .execute(db)
    .then((result) => result.rows);
}

/** The kinds the API names; a kind it does not (none is written today) reads as null. */
function usageKind(kind: string | null): UsageResult['kind'] {
  return zUsageKind.safeParse(kind).data ?? null;
}

function toResult(row: AggregateRow): UsageResult {
  const units = Number(row.units);
  return {
    object: 'usage_result',
    key_id: row.key_id === null ? null : Number(row.key_id),
    model: row.model,
    kind: usageKind(row.kind),
    requests: Number(row.requests),
    input_tokens: Number(row.input_tokens),
    cache_read_tokens: Number(row.cache_read_tokens),
    cache_write_5m_tokens: Number(row.cache_write_5m_tokens),
    cache_write_1h_tokens: Number(row.cache_write_1h_tokens),
    output_tokens: Number(row.output_tokens),
    video_seconds: Number(row.seconds),
    units,
    cost: unitsToCredits(units),
  };
}

/** The range's totals: every figure summed, no grouping field. */
function sumOf(results: UsageResult[]): UsageResult {
  const totals: UsageResult = {
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
  for (const r of results) {
    totals.requests += r.requests;
    totals.input_tokens += r.input_tokens;
    totals.cache_read_tokens += r.cache_read_tokens;
    totals.cache_write_5m_tokens += r.cache_write_5m_tokens;
    totals.cache_write_1h_tokens += r.cache_write_1h_tokens;
    totals.output_tokens += r.output_tokens;
    totals.video_seconds += r.video_seconds;
    totals.units += r.units;
  }
  totals.cost = unitsToCredits(totals.units);
  return totals;
}
