/**
 * What one image request holds against its key, settled exactly once: `settle` when images were
 * delivered, `refund` when none were. The charge is in this instance's journal when `settle`
 * returns (apps/gateway/LEDGER.md), so the answer sent after it never goes unbilled; the database
 * write runs behind it, tracked so shutdown waits for it.
 */
import type { ImagesUsage } from '@modelgate/core';
import { insufficientQuota } from '../errors/api-error.js';
import type { AuthKey } from '../keys/keys.js';
import type { Settlements } from '../text/charge.js';
import { reservedUnits } from './price.js';
import type { ImageRequest } from './request.js';

export class ImageCharge {
  private done = false;

  constructor(
    private readonly settlements: Settlements,
    readonly keyId: number,
    readonly model: string,
    /** Quota units reserved: `n` images at the worst price of what was asked. */
    readonly reserved: number,
    readonly requestId: string,
  ) {}

  /** Replaces the reservation by `units`; the upstream's token counts go on the usage record. */
  settle(units: number, usage: ImagesUsage | undefined): void {
    if (this.done) return;
    this.done = true;
    this.settlements.settle(this.keyId, this.reserved, units, {
      kind: 'image',
      model: this.model,
      inputTokens: usage?.input_tokens,
      outputTokens: usage?.output_tokens,
      requestId: this.requestId,
    });
  }

  /** Gives the whole reservation back: no image reached the client. */
  refund(): void {
    if (this.done) return;
    this.done = true;
    this.settlements.refund(this.keyId, this.reserved, {
      kind: 'image',
      requestId: this.requestId,
    });
  }
}

/**
 * Stage 3: reserves the request's worst case from the key's quota.
 *
 * @throws ApiError 402 `insufficient_quota` when the balance cannot cover it.
 * @example
 * const charge = await admitImage(request, { key, requestId }, settlements);
 */
export async function admitImage(
  request: ImageRequest,
  who: { key: AuthKey; requestId: string },
  settlements: Settlements,
): Promise<ImageCharge> {
  const reserved = reservedUnits(request);
  if (!(await settlements.billing.reserve(who.key.id, reserved))) throw insufficientQuota();
  return new ImageCharge(settlements, who.key.id, request.model.spec.id, reserved, who.requestId);
}
