/**
 * What one embeddings request holds against its key, settled exactly once: its estimated input
 * tokens against the key's tpm and, at the model's price, against its quota — replaced at the end
 * by the tokens the upstream counted (`settle`), or given back (`refund`). The same billing calls
 * as a text request (text/charge.ts's Settlements, limits/http.ts's token hold).
 */
import type { Billing } from '../billing/billing.js';
import { insufficientQuota } from '../errors/api-error.js';
import type { AuthKey } from '../keys/keys.js';
import { holdTokens, type TokenHold } from '../limits/http.js';
import type { RateLimiter } from '../limits/limiter.js';
import type { Settlements } from '../text/charge.js';
import { costUnits } from '../text/cost.js';
import type { EmbeddingRequest } from './request.js';

export class EmbeddingCharge {
  private done = false;

  constructor(
    private readonly settlements: Settlements,
    private readonly request: EmbeddingRequest,
    readonly keyId: number,
    /** Quota units reserved: the estimated tokens at the model's price. */
    readonly reserved: number,
    readonly tokens: TokenHold,
    readonly requestId: string,
  ) {}

  /** Replaces the reservation by the cost of `inputTokens`; journaled before this returns. */
  settle(inputTokens: number): void {
    if (this.done) return;
    this.done = true;
    const { spec } = this.request.model;
    const units = costUnits(
      { inputPerMillion: spec.pricePerMillion, outputPerMillion: 0 },
      inputTokens,
      0,
    );
    this.settlements.settle(this.keyId, this.reserved, units, {
      kind: 'embedding',
      model: spec.id,
      inputTokens,
      outputTokens: 0,
      requestId: this.requestId,
    });
    this.settlements.track(this.tokens.settle(inputTokens));
  }

  /** Gives everything back: no vector reached the client. */
  refund(): void {
    if (this.done) return;
    this.done = true;
    this.settlements.track(this.tokens.release());
    this.settlements.refund(this.keyId, this.reserved, {
      kind: 'embedding',
      requestId: this.requestId,
    });
  }
}

/**
 * Stage 3: the estimate held against tpm (429 first: a request over the key's token rate touches
 * no quota), then reserved from the quota (402).
 *
 * @example
 * const charge = await admitEmbedding(request, { key, requestId }, { billing, settlements, limiter });
 */
export async function admitEmbedding(
  request: EmbeddingRequest,
  who: { key: AuthKey; requestId: string },
  deps: { billing: Billing; settlements: Settlements; limiter?: RateLimiter | undefined },
): Promise<EmbeddingCharge> {
  const { spec } = request.model;
  const tokens = await holdTokens(deps.limiter, who.key, request.estimatedTokens);
  const price = { inputPerMillion: spec.pricePerMillion, outputPerMillion: 0 };
  const reserved = costUnits(price, request.estimatedTokens, 0);
  if (!(await deps.billing.reserve(who.key.id, reserved))) {
    deps.settlements.track(tokens.release());
    throw insufficientQuota();
  }
  return new EmbeddingCharge(
    deps.settlements,
    request,
    who.key.id,
    reserved,
    tokens,
    who.requestId,
  );
}
