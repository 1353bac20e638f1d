/**
 * Stage 3 of an image request: its worst case held against the key's quota (billing's hold),
 * settled when images were delivered or refunded when none were, exactly once.
 */
import type { ImagesUsage } from '@modelgate/core';
import type { Billing, Hold, HoldUsage } from '../billing/billing.js';
import { insufficientQuota } from '../errors/api-error.js';
import type { AuthKey } from '../keys/keys.js';
import { reservedUnits } from './price.js';
import type { ImageRequest } from './request.js';

/** An image request's hold: `settle(units, usage)` with the upstream's tokens, or `refund()`. */
export type ImageCharge = Hold;

/**
 * Reserves `n` images at the worst price of what was asked.
 *
 * @throws ApiError 402 `insufficient_quota` when the balance cannot cover it.
 * @example
 * const charge = await admitImage(request, { key, requestId }, billing);
 * charge.settle(units, imageUsage(answer.usage));
 */
export async function admitImage(
  request: ImageRequest,
  who: { key: AuthKey; requestId: string },
  billing: Billing,
): Promise<ImageCharge> {
  const purpose = { kind: 'image', requestId: who.requestId, model: request.model.spec.id };
  const hold = await billing.hold(who.key.id, reservedUnits(request), purpose);
  if (!hold) throw insufficientQuota();
  return hold;
}

/** The upstream's token counts of the images, for the usage record. */
export function imageUsage(usage: ImagesUsage | undefined): HoldUsage {
  return { inputTokens: usage?.input_tokens, outputTokens: usage?.output_tokens };
}
