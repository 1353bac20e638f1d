/**
 * The write-behind side of billing: settlements, refunds and idle leases' returns are queued and
 * written in batches, off the request's latency path (the journal holds each charge meanwhile).
 * Two queues: `usage` for the leased keys' usage rows and lease returns (gathered longer: nobody
 * waits on them), `balance` for settlements and refunds against the balance. A write is retried
 * while the database is unreachable; one that keeps failing for another reason stays in the
 * journal, for the next start to replay.
 */
import { sleep } from '@modelgate/core/retry';
import type { Kysely } from 'kysely';
import type { DatabaseKind } from '../db/database.js';
import type { DB } from '../db/schema.js';
import { isTransientDbError } from '../errors/transient-db.js';
import type { Logger } from '../observability/logger.js';
import { GroupCommit, ItemFailure } from './group-commit.js';
import type { JournalEntry } from './journal.js';
import type { LeaseBook } from './leases.js';
import {
  releaseHolds,
  type SettleItem,
  settleBatch,
  settleInOneTransaction,
  settleOne,
} from './statements.js';

/** What the queues write: a settlement, a refund, or an idle lease's return. */
export type Work =
  | { settle: SettleItem }
  | { release: number; keyId: number }
  | { returnLease: true; keyId: number };

/** Which queue writes a piece of work (see the module comment). */
export type QueueName = 'usage' | 'balance';

export interface WriteBehindOptions {
  kind?: DatabaseKind;
  /** Gather delay of the `balance` queue, ms. */
  balanceGatherMs: number;
  /** Gather delay of the `usage` queue, ms. */
  usageGatherMs: number;
  log?: Logger;
}

/** A write that fails for a reason other than an unreachable database is tried this often. */
const MAX_PERMANENT_ATTEMPTS = 5;
const MAX_RETRY_DELAY_MS = 2_000;

/** Settlements in one statement where they fit, the rest one by one (each fails alone). */
async function writeSettlements(
  db: Kysely<DB>,
  owner: string,
  items: SettleItem[],
): Promise<Array<number | ItemFailure>> {
  const one = (item: SettleItem) =>
    settleOne(db, item, owner).catch((err: unknown) => new ItemFailure(err));
  if (items.length <= 1) return Promise.all(items.map(one));
  // The batch statement moves no budget: budgeted settlements are written one by one.
  const batchable = items.filter((item) => item.budgetAt == null);
  let settled = new Set<number>();
  try {
    if (batchable.length > 1) settled = await settleBatch(db, batchable, owner);
  } catch {
    // nothing was applied; settle one by one
  }
  const together = await settleBudgetedTogether(db, owner, items);
  const results: Array<number | ItemFailure> = [];
  for (const item of items) {
    const inBatch = item.budgetAt == null && settled.has(item.keyId);
    results.push(inBatch ? item.actual : (together.get(item) ?? (await one(item))));
  }
  return results;
}

/** The batch's budgeted settlements in one transaction; empty when it failed (then one by one). */
async function settleBudgetedTogether(
  db: Kysely<DB>,
  owner: string,
  items: readonly SettleItem[],
): Promise<Map<SettleItem, number>> {
  const budgeted = items.filter((item) => item.budgetAt != null);
  if (budgeted.length < 2) return new Map();
  try {
    const charged = await settleInOneTransaction(db, budgeted, owner);
    return new Map(budgeted.map((item, i) => [item, charged[i]!]));
  } catch {
    return new Map(); // nothing was applied
  }
}

/** Adds `units` to a key's entry of a per-key sum. */
function addTo(sums: Map<number, number>, keyId: number, units: number): void {
  sums.set(keyId, (sums.get(keyId) ?? 0) + units);
}

/**
 * @example
 * const writes = new WriteBehind(db, owner, leases, { balanceGatherMs: 10, usageGatherMs: 50 });
 * const charged = await writes.persist('usage', { settle: item }, entry);
 */
export class WriteBehind {
  private readonly queues: Record<QueueName, GroupCommit<Work, number>>;
  private readonly log: Logger | undefined;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly owner: string,
    private readonly leases: LeaseBook,
    options: WriteBehindOptions,
  ) {
    const run = (items: Work[]) => this.runBatch(items);
    // PGlite has one connection: one batch in flight per queue.
    const inFlight = options.kind === 'pglite' ? 1 : 4;
    this.queues = {
      usage: new GroupCommit<Work, number>(run, 1, 1024, options.usageGatherMs),
      balance: new GroupCommit<Work, number>(run, inFlight, 512, options.balanceGatherMs),
    };
    this.log = options.log;
  }

  /**
   * Writes one piece of work, retrying while the database is unreachable (a restart, a failover):
   * the journal entry is done only once the database has it.
   */
  async persist(queue: QueueName, work: Work, entry?: JournalEntry): Promise<number> {
    for (let attempt = 1; ; attempt++) {
      try {
        const result = await this.queues[queue].submit(work);
        entry?.done();
        return result;
      } catch (err) {
        if (!isTransientDbError(err) && attempt >= MAX_PERMANENT_ATTEMPTS) throw err;
        if (attempt === 1)
          this.log?.warn('billing write failed; retrying', { err, owner: this.owner });
        await sleep(Math.min(MAX_RETRY_DELAY_MS, 25 * 2 ** attempt));
      }
    }
  }

  /**
   * Queues the return of a lease the caller found idle (the batch checks it is still idle when it
   * writes); `now` writes it without the gather delay. Never rejects.
   */
  returnLease(keyId: number, now = false): Promise<void> {
    const queued = this.queues.usage.submit({ returnLease: true, keyId });
    if (now) void this.queues.usage.flush();
    return queued.then(
      () => undefined,
      () => undefined,
    );
  }

  /** Everything queued now is written (the gather delays are cut short). */
  async flush(): Promise<void> {
    await Promise.all([this.queues.balance.flush(), this.queues.usage.flush()]);
  }

  /** Resolves when nothing is queued or being written. */
  async drain(): Promise<void> {
    await Promise.all([this.queues.usage.drain(), this.queues.balance.drain()]);
  }

  private async runBatch(items: Work[]): Promise<Array<number | ItemFailure>> {
    const releases = new Map<number, number>();
    const returned = new Map<number, number>();
    const settles: SettleItem[] = [];
    for (const work of items) {
      if ('settle' in work) settles.push(work.settle);
      else if ('release' in work) addTo(releases, work.keyId, work.release);
      else if (!returned.has(work.keyId)) {
        const units = this.leases.detachIdle(work.keyId);
        if (units !== undefined) returned.set(work.keyId, units);
      }
    }
    for (const [keyId, units] of returned) addTo(releases, keyId, units);
    const settled = await writeSettlements(this.db, this.owner, settles);
    const releaseFailure = await this.writeReleases(releases, returned);
    let next = 0;
    return items.map((work) => {
      if ('settle' in work) return settled[next++]!;
      return 'release' in work && releaseFailure ? releaseFailure : 0;
    });
  }

  /** Writes the batch's releases; when that fails, the returned leases are held here again. */
  private async writeReleases(
    releases: Map<number, number>,
    returned: Map<number, number>,
  ): Promise<ItemFailure | undefined> {
    try {
      await releaseHolds(this.db, this.owner, releases);
      return undefined;
    } catch (err) {
      // Not written: the leases are still held here (returned with a later batch).
      for (const [keyId, units] of returned) this.leases.restore(keyId, units);
      return new ItemFailure(err);
    }
  }
}
