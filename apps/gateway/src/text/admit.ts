/**
 * Stage 2: hold what the request may cost before any upstream call. Images on our own CDN are
 * inlined first, so a URL of a deleted file is the client's 400 before anything is held. Then the
 * worst case (input estimate + output allowance) is held against the key's tpm (429) and its quota
 * (402). The returned {@link Charge} is settled or refunded exactly once by a later stage.
 */
import type { Billing } from '../billing/billing.js';
import { insufficientQuota } from '../errors/api-error.js';
import type { AuthKey } from '../keys/keys.js';
import { holdTokens } from '../limits/http.js';
import type { RateLimiter } from '../limits/limiter.js';
import type { TextModel } from '../models/catalog.js';
import { Charge } from './charge.js';
import { reservationUnits, reservedOutputTokens } from './cost.js';
import { inlineOwnImages, type OwnImageLoader } from './own-images.js';
import type { TextRequest } from './request.js';
import { estimateInputTokens } from './tokens.js';

export interface AdmitDeps {
  billing: Billing;
  limiter?: RateLimiter;
  /** Loads images that point at the gateway's own CDN; absent: every image URL goes upstream. */
  images?: OwnImageLoader;
}

/**
 * @example
 * const charge = await admit(request, model, { key, requestId }, deps);
 */
export async function admit(
  request: TextRequest,
  model: TextModel,
  who: { key: AuthKey; requestId: string },
  deps: AdmitDeps,
): Promise<Charge> {
  if (deps.images) await inlineOwnImages(request, deps.images);
  const estimatedInput = estimateInputTokens(request);
  const maxOutput = reservedOutputTokens(request, model);
  // tpm first: a request over the key's token rate is refused (429) before quota is touched.
  const tokens = await holdTokens(deps.limiter, who.key, estimatedInput + maxOutput);
  const reserved = reservationUnits(model.price, estimatedInput, maxOutput);
  const purpose = { kind: 'text', requestId: who.requestId, model: model.id };
  const hold = await deps.billing.hold(who.key.id, reserved, purpose);
  if (!hold) {
    void tokens.release();
    throw insufficientQuota();
  }
  return new Charge(hold, model, tokens, estimatedInput);
}
