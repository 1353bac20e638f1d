/**
 * Deployment selection and failover (docs/design.md#text-generation). Deployments are drawn by
 * weighted random; a retryable failure (429, 5xx, connection error, timeout) moves on to another
 * deployment — never the one that just failed — as long as nothing has reached the client. The
 * caller's `attempt` decides when that is: it resolves once the first byte is ready to send.
 *
 * When every deployment failed the outcome is, by decision:
 *  - every failure a 429 → 429 rate_limit_error, with the shortest upstream Retry-After;
 *  - every failure a timeout → 504 upstream_timeout;
 *  - otherwise → 502 upstream_error.
 * When every deployment is cooling down (circuit open) and none could be tried →
 * 503 overloaded_error with Retry-After = the time until the first trial.
 */
import { UpstreamError } from '../providers/text/types.js';
import { CircuitBreaker } from './circuit-breaker.js';

export interface Weighted {
  /** Stable identity for the circuit breaker (e.g. `provider:upstream-model`). */
  id: string;
  weight: number;
}

/** The router's verdict when no deployment produced a response. */
export class RoutingError extends Error {
  constructor(
    readonly status: 429 | 502 | 503 | 504,
    readonly type: 'rate_limit_error' | 'upstream_error' | 'overloaded_error' | 'upstream_timeout',
    message: string,
    readonly retryAfterSeconds: number | null,
    readonly failures: UpstreamError[],
  ) {
    super(message);
    this.name = 'RoutingError';
  }
}

/**
 * Weighted random choice among `candidates`, skipping ids in `exclude`. Zero or negative weights
 * are never picked while a positive one remains.
 *
 * @example
 * pickWeighted([{ id: 'a', weight: 3 }, { id: 'b', weight: 1 }], new Set()); // 'a' 3 times in 4
 */
export function pickWeighted<T extends Weighted>(
  candidates: readonly T[],
  exclude: ReadonlySet<string>,
  random: () => number = Math.random,
): T | null {
  const open = candidates.filter((c) => !exclude.has(c.id));
  if (open.length === 0) return null;
  const total = open.reduce((sum, c) => sum + Math.max(0, c.weight), 0);
  if (total <= 0) return open[Math.floor(random() * open.length)] ?? null;
  let point = random() * total;
  for (const candidate of open) {
    point -= Math.max(0, candidate.weight);
    if (point < 0) return candidate;
  }
  return open[open.length - 1] ?? null;
}

export interface RouterOptions {
  breaker?: CircuitBreaker;
  random?: () => number;
}

/**
 * @example
 * const router = new Router();
 * const result = await router.run(model.deployments, (d) => callUpstream(d));
 */
export class Router {
  readonly breaker: CircuitBreaker;
  private readonly random: () => number;

  constructor(options: RouterOptions = {}) {
    this.breaker = options.breaker ?? new CircuitBreaker();
    this.random = options.random ?? Math.random;
  }

  /**
   * Runs `attempt` against deployments until one succeeds. Non-retryable errors (a 400 from
   * upstream, an abort, anything that is not an UpstreamError) are rethrown as they are.
   */
  async run<D extends Weighted, R>(
    deployments: readonly D[],
    attempt: (deployment: D) => Promise<R>,
  ): Promise<R> {
    const tried = new Set<string>();
    const failures: UpstreamError[] = [];
    for (;;) {
      const skipped = new Set(tried);
      let chosen: D | null = null;
      while (chosen === null) {
        const candidate = pickWeighted(deployments, skipped, this.random);
        if (candidate === null) break;
        if (this.breaker.tryAcquire(candidate.id)) chosen = candidate;
        else skipped.add(candidate.id);
      }
      if (chosen === null) throw this.verdict(deployments, failures);
      tried.add(chosen.id);
      try {
        const result = await attempt(chosen);
        this.breaker.recordSuccess(chosen.id);
        return result;
      } catch (error) {
        if (error instanceof UpstreamError && error.retryable) {
          this.breaker.recordFailure(chosen.id);
          failures.push(error);
          continue;
        }
        this.breaker.release(chosen.id);
        throw error;
      }
    }
  }

  private verdict(deployments: readonly Weighted[], failures: UpstreamError[]): RoutingError {
    if (failures.length === 0) {
      const waitMs = Math.min(...deployments.map((d) => this.breaker.msUntilAvailable(d.id)));
      return new RoutingError(
        503,
        'overloaded_error',
        'Every deployment of this model is cooling down after repeated failures.',
        Math.max(1, Math.ceil(waitMs / 1000)),
        failures,
      );
    }
    const last = failures[failures.length - 1]!;
    if (failures.every((f) => f.status === 429)) {
      const waits = failures.map((f) => f.retryAfterSeconds).filter((s): s is number => s !== null);
      return new RoutingError(
        429,
        'rate_limit_error',
        'Every upstream deployment of this model is rate limited.',
        waits.length > 0 ? Math.max(1, Math.min(...waits)) : 1,
        failures,
      );
    }
    if (failures.every((f) => f.kind === 'timeout')) {
      return new RoutingError(504, 'upstream_timeout', last.message, null, failures);
    }
    return new RoutingError(502, 'upstream_error', last.message, null, failures);
  }
}
