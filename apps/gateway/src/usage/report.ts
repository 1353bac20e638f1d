/**
 * Usage over time (`GET /v1/usage`): the ledger's usage rows summed per bucket of an hour or a day
 * (UTC), optionally split by key, team, model and kind. Every bucket of the range is listed, empty
 * ones too, so a chart needs no gap-filling; `totals` sums the whole range.
 */
import {
  addUsage,
  emptyUsage,
  type UsageBucket,
  type UsageReport,
  type UsageResult,
} from '@modelgate/core';
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
  /** How many groups are listed apart; the rest of each bucket is summed as `other`. */
  groupLimit: number;
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
  team_id: number | string | null;
  model: string | null;
  kind: string | null;
  /** The row sums the bucket's groups beyond the limit. */
  other: boolean;
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
 * const report = await usageReport(db, { bucketWidth: '1d', groupBy: ['model'], groupLimit: 10, keyId: 42 }, now);
 */
export async function usageReport(
  db: Kysely<DB>,
  query: UsageQuery,
  now: number,
): Promise<UsageReport> {
  const range = bucketRange(query, now);
  const byBucket = new Map<number, UsageResult[]>();
  const byTeam = query.groupBy.includes('team_id');
  for (const row of await aggregate(db, query, range)) {
    const bucket = Number(row.bucket);
    const results = byBucket.get(bucket) ?? [];
    results.push(toResult(row, byTeam));
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

/**
 * Where the sums come from. Over every key and not split by key or team, the hourly sums serve
 * (`usage_hourly`, kept by a trigger in the rows' own transaction): a bucket is whole hours, so
 * they add up to exactly what the rows do, from a few thousand sums instead of every row (a million
 * rows over 30 days: 0.92 s from the rows). Per key, the rows themselves, by the key's index. Per
 * team, the rows with their key's current team (the rows do not record the team they were spent in).
 */
function source(query: UsageQuery) {
  const rows = { time: sql.ref('created_at'), requests: sql`count(*)` };
  if (query.groupBy.includes('team_id')) {
    const table = sql`(select usage.*, api_keys.team_id from usage
      left join api_keys on api_keys.id = usage.key_id) as usage`;
    return { ...rows, table };
  }
  const hourly = query.keyId === undefined && !query.groupBy.includes('key_id');
  return hourly
    ? { table: sql`usage_hourly`, time: sql.ref('hour'), requests: sql`sum(requests)` }
    : { ...rows, table: sql`usage` };
}

/**
 * The sums per bucket and group, with the groups beyond `groupLimit` (ranked by their units over the
 * whole range, ties broken by key id, team id, model and kind) summed per bucket into one `other` row. The
 * ranking runs in the database, so a report split per key over 10,000 keys sends at most
 * (limit + 1) rows per bucket to this process instead of every key's every bucket.
 */
function aggregate(db: Kysely<DB>, query: UsageQuery, range: Range): Promise<AggregateRow[]> {
  // A field the report is not grouped by is selected as null, so one statement serves every
  // grouping and positional GROUP BY stays the same.
  const grouped = (field: UsageGroup) =>
    query.groupBy.includes(field) ? sql.ref(field) : sql`null`;
  const width = sql.lit(range.width);
  const from = source(query);
  const listed = (field: UsageGroup) => sql`case when other then null else ${sql.ref(field)} end`;
  return sql<AggregateRow>`
    with grouped as (
      select (${from.time} / ${width}) * ${width} as bucket,
             ${grouped('key_id')} as key_id, ${grouped('team_id')} as team_id,
             ${grouped('model')} as model, ${grouped('kind')} as kind,
             ${from.requests} as requests,
             coalesce(sum(input_tokens), 0) as input_tokens,
             coalesce(sum(cache_read_tokens), 0) as cache_read_tokens,
             coalesce(sum(cache_write_5m_tokens), 0) as cache_write_5m_tokens,
             coalesce(sum(cache_write_1h_tokens), 0) as cache_write_1h_tokens,
             coalesce(sum(output_tokens), 0) as output_tokens,
             coalesce(sum(seconds), 0) as seconds,
             coalesce(sum(units), 0) as units
      from ${from.table}
      where ${from.time} >= ${range.start} and ${from.time} < ${range.end}
        ${query.keyId === undefined ? sql`` : sql`and key_id = ${query.keyId}`}
        ${query.model === undefined ? sql`` : sql`and model = ${query.model}`}
      group by 1, 2, 3, 4, 5
    ), totalled as (
      select grouped.*, sum(units) over (partition by key_id, team_id, model, kind) as group_units
      from grouped
    ), ranked as (
      select totalled.*, dense_rank() over (order by group_units desc, key_id nulls first,
               team_id nulls first, model nulls first, kind nulls first) > ${query.groupLimit} as other
      from totalled
    )
    select bucket, ${listed('key_id')} as key_id, ${listed('team_id')} as team_id,
           ${listed('model')} as model, ${listed('kind')} as kind, other,
           sum(requests) as requests, sum(input_tokens) as input_tokens,
           sum(cache_read_tokens) as cache_read_tokens,
           sum(cache_write_5m_tokens) as cache_write_5m_tokens,
           sum(cache_write_1h_tokens) as cache_write_1h_tokens,
           sum(output_tokens) as output_tokens, sum(seconds) as seconds, sum(units) as units
    from ranked
    group by 1, 2, 3, 4, 5, 6
    order by 1, 6, 2, 3, 4, 5`
    .execute(db)
    .then((result) => result.rows);
}

/** The kinds the API names; a kind it does not (none is written today) reads as null. */
function usageKind(kind: string | null): UsageResult['kind'] {
  return zUsageKind.safeParse(kind).data ?? null;
}

/** `byTeam`: the report is grouped by team, so each result names its team (null: no team). */
function toResult(row: AggregateRow, byTeam: boolean): UsageResult {
  const units = Number(row.units);
  return {
    object: 'usage_result',
    key_id: row.key_id === null ? null : Number(row.key_id),
    ...(byTeam ? { team_id: row.team_id === null ? null : Number(row.team_id) } : {}),
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
    ...(row.other ? { other: true as const } : {}),
  };
}

/** The range's totals: every figure summed, no grouping field. */
function sumOf(results: UsageResult[]): UsageResult {
  return results.reduce(addUsage, emptyUsage());
}
