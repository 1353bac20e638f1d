// The ledger equation (used = Σ usage + Σ holds + open tasks) after every kind of charge, the
// return of a dead instance's holds, the replay of its journal, and the balance a client reads
// right after its answer.
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBilling } from '../../src/billing/billing.js';
import { createInstanceRegistry, recoverJournals } from '../../src/billing/instances.js';
import { openJournal } from '../../src/billing/journal.js';
import { checkLedger, formatLedger, ledgerBalances } from '../../src/billing/ledger-check.js';
import { createKeyService } from '../../src/keys/keys.js';
import {
  eachDatabase,
  openTestDatabase,
  startTestGateway,
  type TestDatabase,
} from '../support/index.js';

describe.each(eachDatabase())('the ledger on $name', (target) => {
  let h: TestDatabase;
  let dir: string;
  beforeAll(async () => {
    h = await openTestDatabase(target);
    dir = await mkdtemp(join(tmpdir(), 'mg-journal-'));
  });
  afterAll(async () => {
    await h.close();
    await rm(dir, { recursive: true, force: true });
  });

  const newKey = async (quota: number | null) =>
    (await createKeyService(h.db).create({ name: `k${Math.random()}`, quota })).record.id;
  const rowOf = async (keyId: number, expireMs?: number) =>
    (await checkLedger(h.db, expireMs)).find((r) => r.keyId === keyId)!;

  it('balances after leased, exact, costlier, refunded and concurrent charges', async () => {
    const billing = createBilling(h.db, undefined, { leaseIdleMs: 0 });
    const roomy = await newKey(1_000_000_000);
    const tight = await newKey(5_000);
    const work: Promise<unknown>[] = [];
    for (let i = 0; i < 40; i++) {
      const keyId = i % 2 ? roomy : tight;
      work.push(
        billing.reserve(keyId, 300).then(async (ok) => {
          if (!ok) return;
          if (i % 5 === 0) await billing.refund(keyId, 300);
          else await billing.settle(keyId, 300, i % 7 === 0 ? 900 : 120 + i, {});
        }),
      );
    }
    await Promise.all(work);
    await billing.drain();
    for (const keyId of [roomy, tight]) {
      const row = await rowOf(keyId);
      expect(row).toMatchObject({ difference: 0, orphaned: 0, reserved: 0 });
      expect(row.used).toBe(row.usage);
      expect(row.used).toBeGreaterThan(0);
    }
    expect((await rowOf(tight)).used).toBeLessThanOrEqual(5_000);
  });

  it('shows a dead instance’s holds as orphaned until a live instance returns them', async () => {
    const keyId = await newKey(1_000_000_000);
    const dead = createInstanceRegistry(h.db, 'gw-dead', { expireMs: 1 });
    await dead.start();
    const billing = createBilling(h.db, undefined, { owner: 'gw-dead' });
    expect(await billing.reserve(keyId, 1_000)).toBe(true);
    expect(await billing.reserve(keyId, 1_000)).toBe(true); // in flight when the instance dies
    await billing.settle(keyId, 1_000, 400, { requestId: 'answered' });
    // Written (a reader's flush), the lease still held for the request in flight: then it "dies".
    await billing.returnIdleLease(keyId);
    await new Promise((r) => setTimeout(r, 5));

    const before = await rowOf(keyId, 1);
    expect(before.orphaned).toBeGreaterThan(0);
    expect(ledgerBalances([before])).toBe(false);
    expect(formatLedger([before])).toContain('does NOT balance');

    const live = createInstanceRegistry(h.db, 'gw-live', { expireMs: 1 });
    await live.start();
    await live.beat();
    const after = await rowOf(keyId, 1);
    expect(after).toMatchObject({ used: 400, usage: 400, reserved: 0, orphaned: 0, difference: 0 });
    expect(formatLedger([after])).toContain('difference 0');
    await live.stop();
  });

  it('replays a dead instance’s journal once, then returns its holds', async () => {
    const keyId = await newKey(1_000_000_000);
    const root = join(dir, 'replay');
    const journal = openJournal(root, 'gw-crashed');
    // Writes gather for a minute: the charge is only in the journal when the "crash" comes.
    const billing = createBilling(h.db, undefined, {
      owner: 'gw-crashed',
      journal,
      usageGatherMs: 60_000,
      settleGatherMs: 60_000,
    });
    expect(await billing.reserve(keyId, 1_000)).toBe(true);
    const pending = billing.settle(keyId, 1_000, 700, { requestId: 'in-journal' });
    expect((await rowOf(keyId)).usage).toBe(0);

    expect(await recoverJournals(h.db, root, 'gw-other')).toBe(1);
    expect(await rowOf(keyId)).toMatchObject({ used: 700, usage: 700, orphaned: 0, difference: 0 });
    expect(await readdir(root)).toEqual([]);

    // The "dead" instance was only slow: its own write of the same entry changes nothing.
    await billing.drain();
    await pending;
    const rows = await h.db.selectFrom('usage').selectAll().where('key_id', '=', keyId).execute();
    expect(rows.map((r) => Number(r.units))).toEqual([700]);
    expect((await rowOf(keyId)).difference).toBe(0);
  });
});

describe('the balance right after an answer', () => {
  it('shows the settled charge, not the reservation', async () => {
    const gw = await startTestGateway();
    try {
      const { key, id } = await gw.createKey({ quota: 1_000_000_000 });
      for (const stream of [false, true]) {
        const res = await gw.fetch('/v1/chat/completions', {
          method: 'POST',
          key,
          json: {
            model: 'gpt-4o-mini',
            messages: [{ role: 'user', content: 'balance' }],
            max_tokens: 500,
            stream,
          },
        });
        expect(res.status).toBe(200);
        await res.text();
        const balance = (await (
          await gw.fetch('/v1/dashboard/billing/credit_grants', { key })
        ).json()) as { total_used: number };
        const rows = await gw.services.db
          .selectFrom('usage')
          .select('units')
          .where('key_id', '=', id)
          .execute();
        const charged = rows.reduce((sum, r) => sum + Number(r.units), 0);
        expect(rows).toHaveLength(stream ? 2 : 1);
        expect(charged).toBeGreaterThan(0);
        expect(Math.round(balance.total_used * 1_000_000)).toBe(charged);
      }
    } finally {
      await gw.close();
    }
  });
});
