/**
 * Per-deployment circuit breaker (docs/design.md#text-generation): a deployment that fails
 * `failureThreshold` times within `windowMs` is taken out for `cooldownMs`, then let back in on
 * ONE trial request; the trial's success closes the circuit, its failure opens it again.
 */

export interface CircuitBreakerOptions {
  /** Failures within the window that open the circuit. Default 5. */
  failureThreshold?: number;
  /** The "short window" failures are counted in, ms. Default 30 s. */
  windowMs?: number;
  /** How long an open circuit keeps the deployment out, ms. Default 30 s. */
  cooldownMs?: number;
  /** Clock, injectable for tests. */
  now?: () => number;
}

type State =
  | { kind: 'closed'; failures: number[] }
  | { kind: 'open'; until: number }
  | { kind: 'half-open' };

/**
 * @example
 * const breaker = new CircuitBreaker({ failureThreshold: 3, windowMs: 10_000, cooldownMs: 5_000 });
 * if (breaker.tryAcquire('openai:gpt-4o-mini')) { … breaker.recordSuccess('openai:gpt-4o-mini'); }
 */
export class CircuitBreaker {
  private readonly states = new Map<string, State>();
  private readonly failureThreshold: number;
  private readonly windowMs: number;
  private readonly cooldownMs: number;
  private readonly now: () => number;

  constructor(options: CircuitBreakerOptions = {}) {
    this.failureThreshold = options.failureThreshold ?? 5;
    this.windowMs = options.windowMs ?? 30_000;
    this.cooldownMs = options.cooldownMs ?? 30_000;
    this.now = options.now ?? Date.now;
  }

  /** Whether a request may go to the deployment now, without taking the trial slot. */
  isAvailable(id: string): boolean {
    const state = this.states.get(id);
    if (!state || state.kind === 'closed') return true;
    if (state.kind === 'open') return this.now() >= state.until;
    return false; // half-open: the one trial is in flight
  }

  /**
   * Claims the right to send one request. For an open circuit whose cool-down is over this
   * takes the single trial slot (half-open); concurrent callers are refused until it resolves.
   */
  tryAcquire(id: string): boolean {
    const state = this.states.get(id);
    if (!state || state.kind === 'closed') return true;
    if (state.kind === 'open' && this.now() >= state.until) {
      this.states.set(id, { kind: 'half-open' });
      return true;
    }
    return false;
  }

  recordSuccess(id: string): void {
    const state = this.states.get(id);
    if (state && (state.kind !== 'closed' || state.failures.length > 0)) {
      this.states.set(id, { kind: 'closed', failures: [] });
    }
  }

  recordFailure(id: string): void {
    const now = this.now();
    const state = this.states.get(id);
    if (state?.kind === 'half-open' || state?.kind === 'open') {
      this.states.set(id, { kind: 'open', until: now + this.cooldownMs });
      return;
    }
    const recent = (state?.failures ?? []).filter((at) => now - at < this.windowMs);
    recent.push(now);
    if (recent.length >= this.failureThreshold) {
      this.states.set(id, { kind: 'open', until: now + this.cooldownMs });
    } else {
      this.states.set(id, { kind: 'closed', failures: recent });
    }
  }

  /** Releases a trial slot that ended neither in success nor upstream failure (e.g. a 400). */
  release(id: string): void {
    const state = this.states.get(id);
    if (state?.kind === 'half-open') this.states.set(id, { kind: 'open', until: this.now() });
  }

  /** Milliseconds until the deployment can take a trial request (0 when available). */
  msUntilAvailable(id: string): number {
    const state = this.states.get(id);
    if (state?.kind === 'open') return Math.max(0, state.until - this.now());
    return 0;
  }
}
