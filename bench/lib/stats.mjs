// Small, dependency-free statistics for latency samples (milliseconds).

/** Percentile by the nearest-rank method on a sorted copy; p in [0, 100]. */
export function percentile(values, p) {
  if (values.length === 0) return null;
  const sorted = Float64Array.from(values).sort();
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank];
}

/** p50, p90, p99, p99.9, mean, min, max and count of a sample, all in the sample's unit. */
export function summarize(values) {
  if (values.length === 0) return { count: 0 };
  const sorted = Float64Array.from(values).sort();
  const at = (p) =>
    sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
  let sum = 0;
  for (const v of sorted) sum += v;
  return {
    count: sorted.length,
    min: sorted[0],
    p50: at(50),
    p90: at(90),
    p99: at(99),
    p999: at(99.9),
    max: sorted[sorted.length - 1],
    mean: sum / sorted.length,
  };
}

export function median(values) {
  return percentile(values, 50);
}

/** a / b, or null when either side is missing or b is zero. */
export function ratio(a, b) {
  if (a == null || b == null || b === 0) return null;
  return a / b;
}

/** Rounds for reports: 3 significant decimals below 10, fewer above. */
export function round(value, digits = 3) {
  if (value == null || Number.isNaN(value)) return null;
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}
