// The usage report over every key reads the hourly sums (usage_hourly), which a trigger keeps in
// the rows' own transaction: whatever way rows arrive (a settlement batch, one row, many rows
// across hours in one statement), the report from the sums equals the sums of the rows.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBilling } from '../../src/billing/billing.js';
import { createKeyService } from '../../src/keys/keys.js';
import { usageReport } from '../../src/usage/report.js';
import { eachDatabase, openTestDatabase, type TestDatabase } from '../support/index.js';

/** The settlement path stamps rows with the clock, so the hand-written rows sit just before it. */
const NOW = Math.floor(Date.now() / 1000);
const HOUR = 3600;

interface Row {
  key_id: number;
  kind: string;
  model: string | null;
  input_tokens: number | null;
  cache_read_tokens: number | null;
  output_tokens: number | null;
  seconds: number | null;
  units: number;
  created_at: number;
}

describe.each(eachDatabase())('usage report from the hourly sums on $name', (target) => {
  let h: TestDatabase;
  let keys: number[];
  beforeAll(async () => {
    h = await openTestDatabase(target);
    const service = createKeyService(h.db);
    keys = [
      (await service.create({ name: 'hourly-a', quota: 1e12 })).record.id,
      (await service.create({ name: 'hourly-b', quota: 1e12 })).record.id,
    ];
  });
  afterAll(() => h?.close());

  const insert = (rows: Row[]) => h.db.insertInto('usage').values(rows).execute();
  const row = (keyId: number, model: string | null, units: number, at: number): Row => ({
    key_id: keyId,
    kind: model === null ? 'video' : 'text',
    model,
    input_tokens: model === null ? null : units % 97,
    cache_read_tokens: model === null ? null : units % 7,
    output_tokens: model === null ? null : units % 13,
    seconds: model === null ? 5 : null,
    units,
    created_at: at,
  });

  it('equals the rows summed, per hour and per day, by model and kind', async () => {
    const [a, b] = keys as [number, number];
    // One statement across three hours and both keys; then single rows; then the null model.
    await insert([
      row(a, 'gpt-4o-mini', 1_000, NOW - 10),
      row(b, 'gpt-4o-mini', 2_000, NOW - 20),
      row(a, 'claude-haiku-4-5', 3_000, NOW - HOUR - 5),
      row(b, 'gpt-4o-mini', 4_000, NOW - 2 * HOUR - 1),
      row(a, 'gpt-4o-mini', 5_000, NOW - 2 * HOUR - 2),
    ]);
    await insert([row(a, 'claude-haiku-4-5', 6_000, NOW - HOUR)]);
    await insert([row(b, null, 7_000, NOW - 30), row(a, null, 8_000, NOW - 40)]);
    // And through the real settlement path (a batch written behind, now's hour).
    const billing = createBilling(h.db, undefined, { leaseIdleMs: 0 });
    for (const units of [100, 200, 300]) {
      const hold = await billing.hold(b, 1_000, { kind: 'text', model: 'gpt-4o', requestId: 'r' });
      hold!.settle(units, { inputTokens: 1, outputTokens: 2 });
    }
    await billing.drain();

    const rows = (
      await sql<Row>`select key_id, kind, model, input_tokens, cache_read_tokens, output_tokens, seconds, units,
        created_at from usage where key_id in (${a}, ${b})`.execute(h.db)
    ).rows.map((r) => ({ ...r, created_at: Number(r.created_at), units: Number(r.units) }));
    expect(rows).toHaveLength(11);

    for (const bucketWidth of ['1h', '1d'] as const) {
      const width = bucketWidth === '1h' ? HOUR : 86_400;
      const end = Math.max(NOW, ...rows.map((r) => r.created_at)) + 1;
      const report = await usageReport(
        h.db,
        {
          bucketWidth,
          groupBy: ['model', 'kind'],
          groupLimit: 100,
          startTime: NOW - 3 * HOUR,
          endTime: end,
        },
        end,
      );
      const expected = new Map<
        string,
        { requests: number; units: number; input: number; cacheRead: number }
      >();
      for (const r of rows) {
        const bucket = r.created_at - (r.created_at % width);
        const slot = `${bucket}|${r.model}|${r.kind}`;
        const sum = expected.get(slot) ?? { requests: 0, units: 0, input: 0, cacheRead: 0 };
        sum.requests += 1;
        sum.units += r.units;
        sum.input += Number(r.input_tokens ?? 0);
        sum.cacheRead += Number(r.cache_read_tokens ?? 0);
        expected.set(slot, sum);
      }
      const got = new Map<
        string,
        { requests: number; units: number; input: number; cacheRead: number }
      >();
      for (const bucket of report.data) {
        for (const r of bucket.results) {
          got.set(`${bucket.start_time}|${r.model}|${r.kind}`, {
            requests: r.requests,
            units: r.units,
            input: r.input_tokens,
            cacheRead: r.cache_read_tokens,
          });
        }
      }
      expect(got).toEqual(expected);
      expect(report.totals.units).toBe(rows.reduce((s, r) => s + r.units, 0));
      expect(report.totals.video_seconds).toBe(10);
    }
  });
});
