/**
 * The settle stage: what one text request holds against its key (quota units reserved, tokens held
 * against its tpm) and how it is settled or given back. Settlements run after the answer is on its
 * way (the reservation already holds the money), so the database write is not on the client's
 * latency path; the charge itself is in this instance's journal before `settle` returns
 * (apps/gateway/LEDGER.md). `Settlements.drain()` waits for the writes still running.
 */
import type { Billing, UsageMeta } from '../billing/billing.js';
import type { AuthKey } from '../keys/keys.js';
import type { TokenHold } from '../limits/http.js';
import type { TextModel } from '../models/catalog.js';
import type { Logger } from '../observability/logger.js';
import { costUnits } from './cost.js';

/** The usage a settlement records: always of a kind, and for one request. */
export type SettledUsage = UsageMeta & { kind: string; requestId: string };

/** The settlement writes still running, so shutdown can wait for them. */
export class Settlements {
  private readonly running = new Set<Promise<void>>();

  constructor(
    readonly billing: Billing,
    readonly log: Logger,
  ) {}

  track(work: Promise<void>): void {
    this.running.add(work);
    void work.finally(() => this.running.delete(work));
  }

  /**
   * Replaces a reservation by `units` and records the usage row. The charge is journaled before
   * this returns; the database write runs behind it, tracked, and a failed write is logged.
   */
  settle(keyId: number, reserved: number, units: number, meta: SettledUsage): void {
    const written = this.billing.settle(keyId, reserved, units, undefined, meta).then(
      () => {},
      (err: unknown) =>
        this.log.error(`${meta.kind} settlement failed`, { request_id: meta.requestId, err }),
    );
    this.track(written);
  }

  /** Gives a whole reservation back, tracked; a failed write is logged. */
  refund(keyId: number, reserved: number, what: Pick<SettledUsage, 'kind' | 'requestId'>): void {
    this.track(
      this.billing.refund(keyId, reserved).catch((err: unknown) => {
        this.log.error(`${what.kind} refund failed`, { request_id: what.requestId, err });
      }),
    );
  }

  async drain(): Promise<void> {
    await Promise.allSettled([...this.running]);
  }
}

/** One request's hold on its key, settled exactly once: by `settle` or by `refund`. */
export class Charge {
  private done = false;

  constructor(
    private readonly settlements: Settlements,
    readonly key: AuthKey,
    readonly model: TextModel,
    /** Quota units reserved: the input estimate and the output allowance at the model's price. */
    readonly reserved: number,
    /** The request's worst case held against the key's tpm; its headers go on the answer. */
    readonly tokens: TokenHold,
    /** The input tokens the reservation was priced on, used where the upstream reports none. */
    readonly estimatedInput: number,
    readonly requestId: string,
  ) {}

  /**
   * Replaces the reservation by the cost of what was used. The charge is journaled before this
   * returns, so a caller that ends the answer afterwards never leaves an answer unbilled.
   */
  settle(inputTokens: number, outputTokens: number): void {
    if (this.done) return;
    this.done = true;
    const units = costUnits(this.model.price, inputTokens, outputTokens);
    this.settlements.settle(this.key.id, this.reserved, units, {
      kind: 'text',
      model: this.model.id,
      inputTokens,
      outputTokens,
      requestId: this.requestId,
    });
    this.settlements.track(this.tokens.settle(inputTokens + outputTokens));
  }

  /** Gives everything back: nothing was produced. */
  refund(): void {
    if (this.done) return;
    this.done = true;
    this.settlements.track(this.tokens.release());
    this.settlements.refund(this.key.id, this.reserved, {
      kind: 'text',
      requestId: this.requestId,
    });
  }
}
