// Sums of usage results: the gateway's report sums groups beyond its limit and the range's totals
// with these, and clients sum a report's buckets into series with the same ones, so a figure
// added to `UsageResult` is summed everywhere by changing one function.
import type { UsageResult } from './generated/types.gen.js';

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
