/**
 * One provider's model list as the gateway keeps it in pass-through mode: fetched from the
 * provider, refreshed on a schedule and on a miss, with the well-known list standing in until a
 * fetch has succeeded. Never throws: a failed fetch keeps what was there and is logged.
 */
import type { Logger } from '../observability/logger.js';
import type { TextProviderSpec } from '../providers/text/index.js';
import { fetchUpstreamModels, type UpstreamModel } from './upstream-list.js';

export interface LiveListTiming {
  /** Longest wait for one fetch (all pages), ms. */
  fetchTimeoutMs: number;
  /** Least time between two refreshes a miss asks for, ms: unknown names cannot hammer upstream. */
  missCooldownMs: number;
}

/**
 * @example
 * const list = new LiveModelList(spec, ['gpt-4o-mini'], timing, log);
 * await list.refresh();
 * list.models.map((m) => m.id); // what the provider listed, or ['gpt-4o-mini'] if it could not be asked
 */
export class LiveModelList {
  /** What the provider last listed; the well-known list until a fetch succeeds. */
  models: readonly UpstreamModel[];
  /** Whether `models` came from the provider. */
  fetched = false;
  /** Whether a fetch has ended (either way): until then the catalogue lists none of `models`. */
  settled = false;
  private inFlight: Promise<void> | null = null;
  private lastMissRefresh = Number.NEGATIVE_INFINITY;
  /** Set while fetches fail, so a run of failures is one warning, not one per attempt. */
  private failing = false;
  private readonly abort = new AbortController();

  constructor(
    readonly spec: TextProviderSpec,
    fallback: readonly string[],
    private readonly timing: LiveListTiming,
    private readonly log: Logger,
    private readonly onChange: () => void = () => {},
  ) {
    const created = Math.floor(Date.now() / 1000);
    this.models = fallback.map((id) => ({ id, ownedBy: spec.kind, created }));
  }

  /** Fetches the list now, or joins the fetch under way. */
  refresh(): Promise<void> {
    this.inFlight ??= this.fetchOnce().finally(() => {
      this.inFlight = null;
    });
    return this.inFlight;
  }

  /**
   * A request named an id nobody lists: fetch again, unless a miss already did within the cooldown
   * (then the caller gets the list as it is). Joining a fetch under way costs no cooldown.
   */
  refreshForMiss(): Promise<void> {
    if (this.inFlight) return this.inFlight;
    const now = Date.now();
    if (now - this.lastMissRefresh < this.timing.missCooldownMs) return Promise.resolve();
    this.lastMissRefresh = now;
    return this.refresh();
  }

  /** Stops a fetch under way (shutdown). */
  close(): void {
    this.abort.abort();
  }

  private async fetchOnce(): Promise<void> {
    const signal = AbortSignal.any([
      this.abort.signal,
      AbortSignal.timeout(this.timing.fetchTimeoutMs),
    ]);
    try {
      this.models = await fetchUpstreamModels(this.spec, signal);
      this.fetched = true;
      if (this.failing) this.log.info('model list fetched again', this.fields());
      this.failing = false;
    } catch (err) {
      if (this.abort.signal.aborted) return;
      if (!this.failing) {
        const keeping = this.fetched ? 'the last list fetched' : 'the well-known list';
        this.log.warn(`could not fetch the model list of ${this.spec.name}; serving ${keeping}`, {
          ...this.fields(),
          reason: (err as Error).message,
        });
      }
      this.failing = true;
    } finally {
      this.settled = true;
      this.onChange();
    }
  }

  private fields() {
    return { provider: this.spec.name, models: this.models.length };
  }
}
