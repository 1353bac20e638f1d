/**
 * GCRA (generic cell rate algorithm), the arithmetic every limit store shares.
 *
 * A limit of L units per period P drips one unit back every P / L ms. A bucket stores one number,
 * its theoretical arrival time (TAT): the moment it would be full again. Its *backlog* is
 * `max(0, TAT − now)`; a cost c fits while `backlog + c·P/L ≤ P`, so at most L units pass in one
 * burst and afterwards exactly L per period, smoothly: no window edge exists that a client could
 * straddle. The Redis script (redis-store.ts) is a line-by-line copy of these functions.
 */

/** Every limit is per minute (rpm, tpm). */
export const PERIOD_MS = 60_000;

/** Float slack so that L costs of P/L each still fit in P when P/L is not exact (7 rpm). */
export const EPSILON_MS = 0.001;

/** One limit to charge: `cost` units against `limit` units per minute. */
export interface BucketCost {
  /** Storage key, e.g. `modelgate:rl:42:rpm`. */
  bucket: string;
  limit: number;
  cost: number;
}

/** What a take did: all buckets charged, or (one did not fit) none. */
export interface TakeOutcome {
  allowed: boolean;
  /** Per bucket, in the order given: its backlog after the take (unchanged when refused), ms. */
  backlogsMs: number[];
  /**
   * Charge the same buckets again, unconditionally, in the store that took (negative costs give
   * units back). Reservations settle through this so that they land where they were taken.
   */
  adjust(costs: readonly number[], now: number): Promise<void>;
}

/** Where limit state lives: this process (memory-store.ts) or Redis (redis-store.ts). */
export interface LimitStore {
  /** Atomically: when every cost fits its bucket, charge all of them; otherwise charge nothing. */
  take(costs: readonly BucketCost[], now: number): Promise<TakeOutcome>;
  close(): Promise<void>;
}

/** The same buckets with other costs (the settlement of an earlier take). */
export function withCosts(costs: readonly BucketCost[], next: readonly number[]): BucketCost[] {
  return costs.map((c, i) => ({ ...c, cost: next[i] ?? 0 }));
}

/** ms one unit of `limit` occupies. */
export const unitMs = (limit: number): number => PERIOD_MS / limit;

/**
 * The backlog after adding `cost` units (never below zero: a full bucket stays full).
 * @example addCost(0, 60, 1); // 1000: one request of 60 rpm occupies a second
 */
export function addCost(backlogMs: number, limit: number, cost: number): number {
  return Math.max(0, backlogMs + cost * unitMs(limit));
}

/** Whether a bucket with this backlog (after adding the cost) is within its burst allowance. */
export const fits = (backlogAfterMs: number): boolean => backlogAfterMs <= PERIOD_MS + EPSILON_MS;

/** What a client sees of a bucket: units left for an immediate burst and ms until it is full. */
export interface BucketState {
  limit: number;
  remaining: number;
  /** ms until the bucket is full again (nothing in use). */
  resetMs: number;
}

/** @example bucketState(3, 20_000); // { limit: 3, remaining: 2, resetMs: 20000 } */
export function bucketState(limit: number, backlogMs: number): BucketState {
  const free = Math.floor((PERIOD_MS - backlogMs + EPSILON_MS) / unitMs(limit));
  return { limit, remaining: Math.min(limit, Math.max(0, free)), resetMs: Math.max(0, backlogMs) };
}

/**
 * ms until `cost` more units fit a bucket with this backlog; Infinity when the cost is larger
 * than the whole limit (it never fits).
 * @example waitMs(3, 60_000, 1); // 20000: a 3 rpm bucket, empty, frees one request in 20 s
 */
export function waitMs(limit: number, backlogMs: number, cost: number): number {
  if (cost > limit) return Number.POSITIVE_INFINITY;
  return Math.max(0, backlogMs + cost * unitMs(limit) - PERIOD_MS);
}
