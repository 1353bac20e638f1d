/**
 * The settle stage: what one text request holds against its key (its billing hold on the quota,
 * and the tokens held against its tpm) and how it is settled or given back, exactly once. The
 * settlement runs after the answer is on its way (the hold already has the money), so the database
 * write is not on the client's latency path; the charge itself is in this instance's journal before
 * `settle` returns (apps/gateway/LEDGER.md).
 */
import type { Hold } from '../billing/billing.js';
import type { TokenHold } from '../limits/http.js';
import type { TextModel } from '../models/catalog.js';
import { type TokenUsage, totalInputTokens } from '../translate/usage.js';
import { costUnits } from './cost.js';

/** One request's hold on its key, settled exactly once: by `settle` or by `refund`. */
export class Charge {
  constructor(
    private readonly hold: Hold,
    readonly model: TextModel,
    /** The request's worst case held against the key's tpm; its headers go on the answer. */
    readonly tokens: TokenHold,
    /** The input tokens the reservation was priced on, used where the upstream reports none. */
    readonly estimatedInput: number,
  ) {}

  get requestId(): string {
    return this.hold.purpose.requestId;
  }

  /**
   * Replaces the reservation by the cost of what was used. The charge is journaled before this
   * returns, so a caller that ends the answer afterwards never leaves an answer unbilled.
   */
  settle(usage: TokenUsage): void {
    const units = costUnits(this.model.price, usage);
    if (this.hold.settle(units, usage)) {
      void this.tokens.settle(totalInputTokens(usage) + usage.outputTokens);
    }
  }

  /** Gives everything back: nothing was produced. */
  refund(): void {
    if (this.hold.refund()) void this.tokens.release();
  }
}
