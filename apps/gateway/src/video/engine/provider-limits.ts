/** Per-provider back-off and concurrency of this instance. */
const MAX_PROVIDER_BACKOFF_MS = 60_000;

/**
 * This instance's limits per provider: a back-off after 429/503 and a cap on the tasks in
 * progress at once. A claim round skips the providers that are blocked, and a step waits for a
 * slot (a round may take more rows of one provider than there are free slots).
 */
export class ProviderLimits {
  private readonly inProgress = new Map<string, number>();
  /** provider → {until (ms), strikes} after 429/503. */
  private readonly backoff = new Map<string, { until: number; strikes: number }>();
  private readonly slotWaiters = new Map<string, (() => void)[]>();

  constructor(
    private readonly pollIntervalMs: number,
    private readonly concurrency: number,
  ) {}

  /** The providers a claim round should leave alone now (backing off, or every slot taken). */
  blockedProviders(now: number): string[] {
    return [...new Set([...this.backoff.keys(), ...this.inProgress.keys()])].filter((p) =>
      this.isBlocked(p, now),
    );
  }

  private isBlocked(provider: string, now: number): boolean {
    const b = this.backoff.get(provider);
    return (
      (b !== undefined && b.until > now) || (this.inProgress.get(provider) ?? 0) >= this.concurrency
    );
  }

  /** Backs the provider off after a refusal; returns the delay before the task's next try (ms). */
  noteThrottle(provider: string, retryAfterMs?: number): number {
    const prev = this.backoff.get(provider);
    const strikes = (prev?.strikes ?? 0) + 1;
    const delay = Math.min(
      MAX_PROVIDER_BACKOFF_MS,
      retryAfterMs ?? this.pollIntervalMs * 2 ** Math.min(strikes, 8),
    );
    this.backoff.set(provider, { until: Date.now() + delay, strikes });
    return delay;
  }

  noteSuccess(provider: string): void {
    this.backoff.delete(provider);
  }

  /** Waits for a concurrency slot of the provider and takes it. */
  async acquireSlot(provider: string): Promise<void> {
    while ((this.inProgress.get(provider) ?? 0) >= this.concurrency) {
      await new Promise<void>((resolve) => {
        const queue = this.slotWaiters.get(provider) ?? [];
        queue.push(resolve);
        this.slotWaiters.set(provider, queue);
      });
    }
    this.inProgress.set(provider, (this.inProgress.get(provider) ?? 0) + 1);
  }

  releaseSlot(provider: string): void {
    this.inProgress.set(provider, Math.max(0, (this.inProgress.get(provider) ?? 1) - 1));
    this.slotWaiters.get(provider)?.shift()?.();
  }
}
