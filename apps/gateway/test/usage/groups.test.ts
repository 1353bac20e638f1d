// A usage report lists at most `group_limit` groups apart (the most units over the range); the
// rest of each bucket is one `other` result, and the figures still add up to the totals.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKeyService } from '../../src/keys/keys.js';
import { usageReport } from '../../src/usage/report.js';
import { eachDatabase, openTestDatabase, type TestDatabase } from '../support/index.js';

const NOW = Math.floor(Date.now() / 1000);
const HOUR = 3600;

describe.each(eachDatabase())('group_limit on $name', (target) => {
  let h: TestDatabase;
  let keys: number[];
  beforeAll(async () => {
    h = await openTestDatabase(target);
    const service = createKeyService(h.db);
    keys = [];
    for (let i = 0; i < 5; i++)
      keys.push((await service.create({ name: `g${i}`, quota: 1e12 })).record.id);
    // Key i spends (i + 1) × 1,000 units in each of the last two hours: key 4 the most.
    const rows = keys.flatMap((keyId, i) =>
      [1, 2].map((hoursAgo) => ({
        key_id: keyId,
        kind: 'text',
        model: 'gpt-4o-mini',
        input_tokens: 10,
        output_tokens: 1,
        units: (i + 1) * 1_000,
        created_at: NOW - hoursAgo * HOUR,
      })),
    );
    await h.db.insertInto('usage').values(rows).execute();
  });
  afterAll(() => h?.close());

  const report = (groupLimit: number) =>
    usageReport(
      h.db,
      {
        bucketWidth: '1h',
        groupBy: ['key_id'],
        groupLimit,
        startTime: NOW - 3 * HOUR,
        endTime: NOW,
      },
      NOW,
    );

  it('lists the largest groups apart and sums the rest as other, per bucket', async () => {
    const r = await report(2);
    const filled = r.data.filter((bucket) => bucket.results.length > 0);
    expect(filled).toHaveLength(2);
    for (const bucket of filled) {
      expect(bucket.results.map((x) => [x.key_id, x.units, x.other ?? false])).toEqual([
        [keys[3], 4_000, false],
        [keys[4], 5_000, false],
        [null, 6_000, true],
      ]);
      expect(bucket.results.at(-1)?.requests).toBe(3);
    }
    expect(r.totals.units).toBe(30_000);
    expect(r.totals.other).toBeUndefined();
  });

  it('lists every group when they fit, with no other', async () => {
    const r = await report(5);
    const results = r.data.flatMap((bucket) => bucket.results);
    expect(results).toHaveLength(10);
    expect(results.some((x) => x.other)).toBe(false);
  });

  it('ranks over the whole range and breaks ties by key id', async () => {
    // Keys 0 and 1 (2,000 and 4,000 units so far) get 102,000 and 100,000 more: the same in all,
    // more than any other key. The lower id is listed, the other is summed with the rest.
    const tied = [keys[0], keys[1]].map((keyId, i) => ({
      key_id: keyId as number,
      kind: 'text',
      model: 'gpt-4o-mini',
      units: i === 0 ? 102_000 : 100_000,
      created_at: NOW - (i === 0 ? 1 : 2) * HOUR - 60,
    }));
    await h.db.insertInto('usage').values(tied).execute();
    try {
      const r = await report(1);
      const listed = r.data.flatMap((b) => b.results).filter((x) => !x.other);
      expect(new Set(listed.map((x) => x.key_id))).toEqual(new Set([keys[0]]));
      expect(r.totals.units).toBe(232_000);
    } finally {
      await h.db.deleteFrom('usage').where('units', 'in', [100_000, 102_000]).execute();
    }
  });

  it("splits by team: each key's usage counts toward the team it is in, keyless usage apart", async () => {
    // Keys 0 and 1 in one team, key 2 in another, keys 3 and 4 in none.
    const teamIds: number[] = [];
    for (const name of ['red', 'blue']) {
      const row = await h.db
        .insertInto('teams')
        .values({ name, created_at: NOW })
        .returning('id')
        .executeTakeFirstOrThrow();
      teamIds.push(Number(row.id));
    }
    const moves: [number, number][] = [
      [keys[0] as number, teamIds[0] as number],
      [keys[1] as number, teamIds[0] as number],
      [keys[2] as number, teamIds[1] as number],
    ];
    for (const [keyId, teamId] of moves)
      await h.db.updateTable('api_keys').set({ team_id: teamId }).where('id', '=', keyId).execute();
    try {
      const r = await usageReport(
        h.db,
        {
          bucketWidth: '1d',
          groupBy: ['team_id'],
          groupLimit: 10,
          startTime: NOW - 3 * HOUR,
          endTime: NOW,
        },
        NOW,
      );
      const byTeam = new Map<number | null, number>();
      for (const result of r.data.flatMap((bucket) => bucket.results))
        byTeam.set(
          result.team_id ?? null,
          (byTeam.get(result.team_id ?? null) ?? 0) + result.units,
        );
      // Key i spent (i + 1) × 2,000 units: red 2,000 + 4,000, blue 6,000, no team 8,000 + 10,000.
      expect(Object.fromEntries(byTeam)).toEqual({
        [String(teamIds[0])]: 6_000,
        [String(teamIds[1])]: 6_000,
        null: 18_000,
      });
      expect(r.totals.units).toBe(30_000);
    } finally {
      await h.db.updateTable('api_keys').set({ team_id: null }).where('id', 'in', keys).execute();
      await h.db.deleteFrom('teams').where('id', 'in', teamIds).execute();
    }
  });
});
