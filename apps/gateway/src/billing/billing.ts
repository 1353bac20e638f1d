/**
 * Quota accounting in integer units (1 credit = 1,000,000 units).
 *
 * reserve → one conditional UPDATE that succeeds only if the balance covers the amount, so any number
 * of concurrent requests can never push a balance below zero. settle → replaces the reservation with
 * the actual charge (capped at the remaining balance) and records a usage row. refund → gives the
 * reservation back. Pass `trx` to make the change part of a larger transaction (video final states).
 */
import { type Kysely, sql, type Transaction } from 'kysely';
import type { DB } from '../db/schema.js';
import type { StandardMetrics } from '../observability/metrics.js';

export const UNITS_PER_CREDIT = 1_000_000;

/** Credits (decimal, for the API edge) from integer units. */
export function unitsToCredits(units: number): number {
  return units / UNITS_PER_CREDIT;
}

/** What a usage row records besides the units. */
export interface UsageMeta {
  kind?: 'text' | 'video' | (string & {});
  model?: string | null;
  inputTokens?: number | null;
  outputTokens?: number | null;
  seconds?: number | null;
  requestId?: string | null;
  /** Free reference, e.g. the video task id. */
  ref?: string | null;
}

export interface SettleResult {
  /** Units actually charged (≤ actualUnits when the balance ran out). */
  charged: number;
}

export interface Billing {
  /**
   * Atomically reserve `units`. false = not enough balance (answer 402 insufficient_quota).
   * @example if (!(await billing.reserve(key.id, 2_000))) throw insufficientQuota();
   */
  reserve(keyId: number, units: number, trx?: Transaction<DB>): Promise<boolean>;
  /**
   * Replace a reservation by the actual cost and record usage.
   * @example await billing.settle(key.id, 2_000, 1_234, undefined, { kind: 'text', model, inputTokens: 10, outputTokens: 20, requestId });
   */
  settle(
    keyId: number,
    reservedUnits: number,
    actualUnits: number,
    trx?: Transaction<DB>,
    meta?: UsageMeta,
  ): Promise<SettleResult>;
  /** Give a reservation back (failed request, cancelled task). A usage row (0 units) only with meta. */
  refund(
    keyId: number,
    reservedUnits: number,
    trx?: Transaction<DB>,
    meta?: UsageMeta,
  ): Promise<void>;
}

function assertUnits(name: string, v: number): void {
  if (!Number.isSafeInteger(v) || v < 0)
    throw new RangeError(`${name} must be a non-negative integer, got ${v}`);
}

export function createBilling(db: Kysely<DB>, metrics?: StandardMetrics): Billing {
  const inTrx = <T>(trx: Transaction<DB> | undefined, fn: (t: Transaction<DB>) => Promise<T>) =>
    trx ? fn(trx) : db.transaction().execute(fn);

  const recordUsage = async (
    t: Kysely<DB> | Transaction<DB>,
    keyId: number,
    units: number,
    meta: UsageMeta,
  ) => {
    await t
      .insertInto('usage')
      .values({
        key_id: keyId,
        kind: meta.kind ?? 'text',
        model: meta.model ?? null,
        input_tokens: meta.inputTokens ?? null,
        output_tokens: meta.outputTokens ?? null,
        seconds: meta.seconds ?? null,
        units,
        request_id: meta.requestId ?? null,
        ref: meta.ref ?? null,
        created_at: Math.floor(Date.now() / 1000),
      })
      .execute();
  };

  return {
    async reserve(keyId, units, trx) {
      assertUnits('units', units);
      const res = await (trx ?? db)
        .updateTable('api_keys')
        .set({ used: sql`used + ${units}` })
        .where('id', '=', keyId)
        .where((eb) =>
          eb.or([eb('quota', 'is', null), eb(sql`used + ${units}`, '<=', eb.ref('quota'))]),
        )
        .executeTakeFirst();
      return Number(res.numUpdatedRows) === 1;
    },

    async settle(keyId, reservedUnits, actualUnits, trx, meta = {}) {
      assertUnits('reservedUnits', reservedUnits);
      assertUnits('actualUnits', actualUnits);
      const charged = await inTrx(trx, async (t) => {
        // Lock the row, then compute the charge from the locked values: the balance may have been
        // spent by other requests since the reservation, and must not go below zero.
        const row = await t
          .selectFrom('api_keys')
          .select(['used', 'quota'])
          .where('id', '=', keyId)
          .forUpdate()
          .executeTakeFirst();
        if (!row) return 0;
        const base = Math.max(0, Number(row.used) - reservedUnits);
        const cap = row.quota === null ? Number.POSITIVE_INFINITY : Number(row.quota) - base;
        const chargedUnits = Math.max(0, Math.min(actualUnits, cap));
        await t
          .updateTable('api_keys')
          .set({ used: base + chargedUnits })
          .where('id', '=', keyId)
          .execute();
        await recordUsage(t, keyId, chargedUnits, meta);
        return chargedUnits;
      });
      if (metrics) {
        const kind = meta.kind ?? 'text';
        if (charged > 0) metrics.quotaUnitsCharged.inc({ kind }, charged);
        const model = meta.model ?? 'unknown';
        if (meta.inputTokens) metrics.tokens.inc({ model, direction: 'in' }, meta.inputTokens);
        if (meta.outputTokens) metrics.tokens.inc({ model, direction: 'out' }, meta.outputTokens);
      }
      return { charged };
    },

    async refund(keyId, reservedUnits, trx, meta) {
      assertUnits('reservedUnits', reservedUnits);
      await inTrx(trx, async (t) => {
        await t
          .updateTable('api_keys')
          .set({ used: sql`greatest(0, used - ${reservedUnits})` })
          .where('id', '=', keyId)
          .execute();
        if (meta) await recordUsage(t, keyId, 0, meta);
      });
    },
  };
}
