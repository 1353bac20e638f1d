/**
 * What one embeddings request holds against its key, settled exactly once: its estimated input
 * tokens against the key's tpm and, at the model's price, against its quota (billing's hold) —
 * replaced at the end by the tokens the upstream counted (`settle`), or given back (`refund`).
 */
import type { Billing, Hold } from '../billing/billing.js';
import { insufficientQuota } from '../errors/api-error.js';
import type { AuthKey } from '../keys/keys.js';
import { holdTokens, type TokenHold } from '../limits/http.js';
import type { RateLimiter } from '../limits/limiter.js';
import { uniformPrice } from '../models/cache-prices.js';
import { reservationUnits } from '../text/cost.js';
import type { EmbeddingRequest } from './request.js';

export class EmbeddingCharge {
  constructor(
    private readonly hold: Hold,
    private readonly request: EmbeddingRequest,
    readonly tokens: TokenHold,
  ) {}

  /** Replaces the reservation by the cost of `inputTokens`; journaled before this returns. */
  settle(inputTokens: number): void {
    const units = reservationUnits(priceOf(this.request), inputTokens, 0);
    if (this.hold.settle(units, { inputTokens, outputTokens: 0 })) {
      void this.tokens.settle(inputTokens);
    }
  }

  /** Gives everything back: no vector reached the client. */
  refund(): void {
    if (this.hold.refund()) void this.tokens.release();
  }
}

function priceOf(request: EmbeddingRequest) {
  // Embeddings have no prompt cache: every input token is at the one input price.
  return uniformPrice(request.model.spec.pricePerMillion, 0);
}

/**
 * Stage 3: the estimate held against tpm (429 first: a request over the key's token rate touches
 * no quota), then reserved from the quota (402).
 *
 * @example
 * const charge = await admitEmbedding(request, { key, requestId }, { billing, limiter });
 */
export async function admitEmbedding(
  request: EmbeddingRequest,
  who: { key: AuthKey; requestId: string },
  deps: { billing: Billing; limiter?: RateLimiter | undefined },
): Promise<EmbeddingCharge> {
  const tokens = await holdTokens(deps.limiter, who.key, request.estimatedTokens);
  const reserved = reservationUnits(priceOf(request), request.estimatedTokens, 0);
  const purpose = { kind: 'embedding', requestId: who.requestId, model: request.model.spec.id };
  const hold = await deps.billing.hold(who.key.id, reserved, purpose);
  if (!hold) {
    void tokens.release();
    throw insufficientQuota();
  }
  return new EmbeddingCharge(hold, request, tokens);
}
