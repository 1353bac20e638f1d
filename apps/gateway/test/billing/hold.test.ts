// billing.hold: the one way a request charges. A hold is settled or refunded exactly once, whatever
// the order or number of calls, and the books balance after each.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBilling } from '../../src/billing/billing.js';
import { createKeyService } from '../../src/keys/keys.js';
import { eachDatabase, openTestDatabase, type TestDatabase } from '../support/index.js';

describe.each(eachDatabase())('billing.hold on $name', (target) => {
  let h: TestDatabase;
  beforeAll(async () => {
    h = await openTestDatabase(target);
  });
  afterAll(() => h?.close());

  const used = async (id: number) =>
    (
      await h.db
        .selectFrom('api_keys')
        .select('used')
        .where('id', '=', id)
        .executeTakeFirstOrThrow()
    ).used;
  const usageRows = (id: number) =>
    h.db
      .selectFrom('usage')
      .select(['kind', 'model', 'units', 'input_tokens', 'output_tokens', 'request_id'])
      .where('key_id', '=', id)
      .execute();

  it('settles once: a second settle and a later refund change nothing', async () => {
    const { record } = await createKeyService(h.db).create({ name: 'once', quota: 10_000 });
    const billing = createBilling(h.db, undefined, { leaseIdleMs: 0 });
    const hold = await billing.hold(record.id, 4_000, {
      kind: 'image',
      requestId: 'req_once',
      model: 'dall-e-3',
    });
    expect(hold).not.toBeNull();
    expect(hold!.settle(1_500, { inputTokens: 3, outputTokens: 4 })).toBe(true);
    expect(hold!.settle(9_000)).toBe(false);
    expect(hold!.refund()).toBe(false);
    expect(hold!.closed).toBe(true);
    await billing.drain();
    expect(await used(record.id)).toBe(1_500);
    expect(await usageRows(record.id)).toEqual([
      {
        kind: 'image',
        model: 'dall-e-3',
        units: 1_500,
        input_tokens: 3,
        output_tokens: 4,
        request_id: 'req_once',
      },
    ]);
  });

  it('refunds once: the whole reservation comes back and a later settle charges nothing', async () => {
    const { record } = await createKeyService(h.db).create({ name: 'refund', quota: 10_000 });
    const billing = createBilling(h.db, undefined, { leaseIdleMs: 0 });
    const hold = await billing.hold(record.id, 4_000, { kind: 'text', requestId: 'req_r' });
    expect(hold!.refund()).toBe(true);
    expect(hold!.settle(2_000)).toBe(false);
    await billing.drain();
    expect(await used(record.id)).toBe(0);
    expect(await usageRows(record.id)).toEqual([]);
  });

  it('is null when the balance cannot cover the worst case, and holds nothing then', async () => {
    const { record } = await createKeyService(h.db).create({ name: 'poor', quota: 1_000 });
    const billing = createBilling(h.db, undefined, { leaseIdleMs: 0 });
    expect(await billing.hold(record.id, 1_001, { kind: 'text', requestId: 'r' })).toBeNull();
    await billing.drain();
    expect(await used(record.id)).toBe(0);
  });
});
