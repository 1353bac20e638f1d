/**
 * `x-modelgate-overhead-ms`: the gateway's own time on a request, from its arrival to the answer's
 * head, without the time spent waiting on upstreams. Every answer carries it, refusals included.
 */

export const OVERHEAD_HEADER = 'x-modelgate-overhead-ms';

/**
 * @example
 * const clock = new OverheadClock(startedAt);
 * const sentAt = performance.now(); await send(); clock.upstreamSince(sentAt);
 * headers[OVERHEAD_HEADER] = clock.header();
 */
export class OverheadClock {
  private upstreamMs = 0;

  constructor(private readonly startedAt: number) {}

  /** Counts the time since `sentAt` as spent waiting on an upstream. */
  upstreamSince(sentAt: number): void {
    this.upstreamMs += performance.now() - sentAt;
  }

  /** The header's value now, in milliseconds with two decimals. */
  header(): string {
    return Math.max(0, performance.now() - this.startedAt - this.upstreamMs).toFixed(2);
  }
}
