/**
 * Per-key rate limits: rpm (requests per minute) and tpm (tokens per minute), each a GCRA bucket
 * (gcra.ts) in a LimitStore — this process's memory, or Redis shared by all instances with a
 * per-instance fallback (fallback-store.ts).
 *
 * Every /v1 request takes one rpm unit (`check`); a text request also reserves its worst case in
 * tokens before any upstream call (`reserveTokens`) and settles to the tokens it really used
 * afterwards, giving the unused part back.
 */
import type { AuthKey } from '../keys/keys.js';
import {
  type BucketCost,
  type BucketState,
  bucketState,
  type LimitStore,
  PERIOD_MS,
  type TakeOutcome,
  waitMs,
} from './gcra.js';

export type { BucketState as RateLimitState } from './gcra.js';

/**
 * An OpenAI-style duration for x-ratelimit-reset-*: `250ms`, `8.64s`, `1m0s`.
 *
 * @example formatResetDuration(60_000); // '1m0s'
 */
export function formatResetDuration(ms: number): string {
  const v = Math.max(0, Math.round(ms));
  if (v < 1000) return `${v}ms`;
  if (v < 60_000) return `${Number((v / 1000).toFixed(3))}s`;
  const minutes = Math.floor(v / 60_000);
  const seconds = Number(((v % 60_000) / 1000).toFixed(3));
  return `${minutes}m${seconds}s`;
}

export interface RateLimitDecision {
  allowed: boolean;
  /**
   * Which limit refused the request: `requests` (rpm), `tokens` (tpm, fits later) or
   * `tokens_over_limit` (this request alone needs more tokens than the key's whole tpm).
   */
  reason: 'requests' | 'tokens' | 'tokens_over_limit' | null;
  /** Seconds until the refused request would fit (≥ 1); 0 when allowed. */
  retryAfterSeconds: number;
  requests: BucketState | null;
  tokens: BucketState | null;
  /** Tokens the request asked to reserve (0 for the per-request check). */
  requestedTokens: number;
}

/** Tokens held for one text request until it settles. */
export interface TokenReservation {
  decision: RateLimitDecision;
  /** Charge what the request really used instead of the reservation (once; later calls no-op). */
  settle(actualTokens: number): Promise<void>;
  /** Give the whole reservation back (the request produced nothing). */
  release(): Promise<void>;
}

export interface RateLimiter {
  /**
   * Count one request against the key's rpm; also refuses a key whose tpm bucket is already
   * overdrawn. Keys without rpm/tpm are always allowed (no state).
   * @example const decision = await limiter.check(key); // decision.allowed, decision.requests?.remaining
   */
  check(key: AuthKey): Promise<RateLimitDecision>;
  /**
   * Reserve `tokens` (prompt estimate + max output) against the key's tpm up front.
   * @example
   * const hold = await limiter.reserveTokens(key, 1_200);
   * if (hold.decision.allowed) { …; await hold.settle(usage.total_tokens); }
   */
  reserveTokens(key: AuthKey, tokens: number): Promise<TokenReservation>;
  close(): Promise<void>;
}

export interface LimiterOptions {
  store: LimitStore;
  /** Prefix for bucket names (Redis keys); lets tests and deployments share one Redis. */
  prefix?: string;
  /** The clock, in ms (tests inject one). */
  now?: () => number;
}

const hasLimit = (v: number | null | undefined): v is number => v !== null && v !== undefined;

/** A bucket cost tagged with the limit it belongs to. */
interface Charge extends BucketCost {
  kind: 'requests' | 'tokens';
}

/**
 * @example
 * const limiter = createRateLimiter({ store: createMemoryStore() });
 * (await limiter.check(key)).allowed; // true until the key's rpm is used up
 */
export function createRateLimiter(options: LimiterOptions): RateLimiter {
  const { store } = options;
  const prefix = options.prefix ?? 'modelgate';
  const now = options.now ?? Date.now;
  const bucket = (key: AuthKey, kind: 'rpm' | 'tpm') => `${prefix}:rl:${key.id}:${kind}`;
  const adjusting = new Set<Promise<void>>();
  const track = (work: Promise<void>): Promise<void> => {
    adjusting.add(work);
    const forget = () => adjusting.delete(work);
    work.then(forget, forget);
    return work;
  };

  return {
    async check(key) {
      const charges: Charge[] = [];
      if (hasLimit(key.rpm)) {
        charges.push({ kind: 'requests', bucket: bucket(key, 'rpm'), limit: key.rpm, cost: 1 });
      }
      if (hasLimit(key.tpm)) {
        charges.push({ kind: 'tokens', bucket: bucket(key, 'tpm'), limit: key.tpm, cost: 0 });
      }
      if (charges.length === 0) return allow(null, null, 0);
      return decide(charges, await store.take(charges, now()), 0);
    },

    async reserveTokens(key, tokens) {
      if (!hasLimit(key.tpm)) return { decision: allow(null, null, tokens), ...NOTHING_HELD };
      const reserved = Math.max(0, Math.ceil(tokens));
      const charges: Charge[] = [
        { kind: 'tokens', bucket: bucket(key, 'tpm'), limit: key.tpm, cost: reserved },
      ];
      const outcome = await store.take(charges, now());
      const decision = decide(charges, outcome, reserved);
      if (!outcome.allowed) return { decision, ...NOTHING_HELD };
      let settled = false;
      const settle = (actual: number): Promise<void> => {
        if (settled) return Promise.resolve();
        settled = true;
        const used = Math.max(0, Math.ceil(actual));
        return used === reserved
          ? Promise.resolve()
          : track(outcome.adjust([used - reserved], now()));
      };
      return { decision, settle, release: () => settle(0) };
    },

    async close() {
      // The adjustments still running go to the store before it closes.
      await Promise.allSettled([...adjusting]);
      await store.close();
    },
  };
}

const NOTHING_HELD = { settle: async () => {}, release: async () => {} };

function allow(
  requests: BucketState | null,
  tokens: BucketState | null,
  requestedTokens: number,
): RateLimitDecision {
  return { allowed: true, reason: null, retryAfterSeconds: 0, requests, tokens, requestedTokens };
}

/** A take's outcome as a decision: each limit's state, and which one refused and for how long. */
function decide(
  charges: readonly Charge[],
  outcome: TakeOutcome,
  requestedTokens: number,
): RateLimitDecision {
  const stateOf = (kind: Charge['kind']): BucketState | null => {
    const i = charges.findIndex((c) => c.kind === kind);
    return i < 0 ? null : bucketState(charges[i]!.limit, outcome.backlogsMs[i]!);
  };
  const requests = stateOf('requests');
  const tokens = stateOf('tokens');
  if (outcome.allowed) return allow(requests, tokens, requestedTokens);

  // The refusing bucket is the one that waits longest; that wait is the Retry-After.
  const waits = charges.map((c, i) => waitMs(c.limit, outcome.backlogsMs[i]!, c.cost));
  const worst = waits.indexOf(Math.max(...waits));
  const wait = waits[worst]!;
  const overLimit = !Number.isFinite(wait);
  return {
    allowed: false,
    reason:
      charges[worst]!.kind === 'requests' ? 'requests' : overLimit ? 'tokens_over_limit' : 'tokens',
    // A request larger than the whole limit never fits; a full period is the honest upper bound
    // on when the key's budget is back, and the message tells the client to ask for fewer tokens.
    retryAfterSeconds: Math.max(1, Math.ceil((overLimit ? PERIOD_MS : wait) / 1000)),
    requests,
    tokens,
    requestedTokens,
  };
}
