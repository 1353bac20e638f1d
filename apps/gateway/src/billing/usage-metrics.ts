/** What a settled charge adds to the metrics: its units by kind, its tokens by model. */
import type { StandardMetrics } from '../observability/metrics.js';
import type { UsageMeta } from './statements.js';

/** Adds a settled charge and its tokens to the metrics. */
export function countUsage(
  metrics: StandardMetrics | undefined,
  charged: number,
  meta: UsageMeta,
): void {
  if (!metrics) return;
  const kind = meta.kind ?? 'text';
  if (charged > 0) metrics.quotaUnitsCharged.inc({ kind }, charged);
  const model = meta.model ?? 'unknown';
  const input =
    (meta.inputTokens ?? 0) +
    (meta.cacheReadTokens ?? 0) +
    (meta.cacheWrite5mTokens ?? 0) +
    (meta.cacheWrite1hTokens ?? 0);
  if (input) metrics.tokens.inc({ model, direction: 'in' }, input);
  if (meta.outputTokens) metrics.tokens.inc({ model, direction: 'out' }, meta.outputTokens);
}
