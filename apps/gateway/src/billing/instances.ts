/**
 * Gateway instances on one database, and what happens to the holds of one that dies (LEDGER.md).
 *
 * Each instance registers a row and beats every `heartbeatMs`. On each beat it also returns the
 * holds of instances whose heartbeat is older than `expireMs` (or that never registered): those
 * reservations belonged to requests that died with their instance. At start an instance first
 * replays the journals that dead instances left in its own data directory, so every charge a dead
 * instance answered for is written before its holds are returned. Replaying after the holds were
 * returned (a journal found late) is still exact: a settlement whose hold is gone charges the
 * balance instead (statements.ts).
 */
import { hostname } from 'node:os';
import { type Kysely, sql } from 'kysely';
import type { DB } from '../db/schema.js';
import type { Logger } from '../observability/logger.js';
import { findJournals, type JournalOwner } from './journal.js';
import { settleOne } from './statements.js';

/** An instance whose heartbeat is older than this is dead (every default in the ledger uses it). */
export const INSTANCE_EXPIRE_MS = 30_000;

export interface InstanceOptions {
  /** Default 5,000 ms. */
  heartbeatMs?: number;
  /** An instance silent this long is dead. Default {@link INSTANCE_EXPIRE_MS}. */
  expireMs?: number;
  log?: Logger;
  /** Called when another instance declared this one dead and returned its holds. */
  onHoldsLost?: () => void;
  /** Runs on every beat, after the heartbeat (e.g. replaying journals of dead instances). */
  onBeat?: () => Promise<unknown>;
}

export interface InstanceRegistry {
  readonly id: string;
  /** Registers this instance and starts the heartbeat. */
  start(): Promise<void>;
  /** One heartbeat and sweep now (the timer calls it). */
  beat(): Promise<void>;
  /** Stops the heartbeat and returns whatever this instance still holds. */
  stop(): Promise<void>;
}

/**
 * Returns the holds of `owner` (or of every expired or unregistered owner) to the balances, and to
 * the budgets that counted them. A budgeted key takes no lease, so its hold is the reservations of
 * requests that died with the instance: the key's and its team's `budget_spent` get them back when
 * the instance was alive in the budget's stored period (its last heartbeat at or after the
 * period's start); after a rollover the new period never counted them. A hold without an instance
 * row counts as alive now.
 */
export async function returnHolds(
  db: Kysely<DB>,
  which: { owner: string } | { expiredBeforeMs: number },
): Promise<number> {
  const dead =
    'owner' in which
      ? sql`delete from gateway_instances where id = ${which.owner} returning id, heartbeat_at_ms`
      : sql`delete from gateway_instances where heartbeat_at_ms < ${which.expiredBeforeMs}
          returning id, heartbeat_at_ms`;
  const orphan =
    'owner' in which
      ? sql`h.owner = ${which.owner}`
      : sql`h.owner in (select id from dead)
          or not exists (select 1 from gateway_instances i where i.id = h.owner)`;
  const res = await sql<{ n: number }>`with dead as (${dead}),
      gone as (delete from ledger_holds h where ${orphan} returning h.key_id, h.units, h.owner),
      seen as (
        select g.key_id, g.units,
          coalesce((select d.heartbeat_at_ms from dead d where d.id = g.owner), ${Date.now()}::bigint)
            / 1000 as alive_at
        from gone g
      ),
      per_key as (select key_id, sum(units) as units from seen group by key_id),
      upd as (update api_keys k set used = k.used - per_key.units,
          budget_spent = greatest(0, k.budget_spent - coalesce((select sum(s.units) from seen s
            where s.key_id = k.id and s.alive_at >= k.budget_period_start), 0))
        from per_key where k.id = per_key.key_id returning k.id, k.team_id),
      team as (update teams t set budget_spent = greatest(0, t.budget_spent - c.units)
        from (select upd.team_id, sum(s.units) as units
          from upd join seen s on s.key_id = upd.id join teams p on p.id = upd.team_id
          where s.alive_at >= p.budget_period_start group by upd.team_id) c
        where t.id = c.team_id)
    select count(*)::int as n from upd`.execute(db);
  return Number(res.rows[0]?.n ?? 0);
}

/**
 * @example
 * const registry = createInstanceRegistry(db, 'gw-1a2b', { onHoldsLost: () => billing.forgetLeases() });
 * await registry.start();
 */
export function createInstanceRegistry(
  db: Kysely<DB>,
  id: string,
  options: InstanceOptions = {},
): InstanceRegistry {
  const heartbeatMs = options.heartbeatMs ?? 5_000;
  const expireMs = options.expireMs ?? INSTANCE_EXPIRE_MS;
  let timer: ReturnType<typeof setInterval> | null = null;
  let beating: Promise<void> | null = null;

  const register = async () => {
    const now = Date.now();
    await db
      .insertInto('gateway_instances')
      .values({ id, host: hostname(), pid: process.pid, started_at_ms: now, heartbeat_at_ms: now })
      .onConflict((oc) => oc.column('id').doUpdateSet({ heartbeat_at_ms: now }))
      .execute();
  };

  const beatOnce = async () => {
    const now = Date.now();
    const res = await db
      .updateTable('gateway_instances')
      .set({ heartbeat_at_ms: now })
      .where('id', '=', id)
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) === 0) {
      options.log?.warn('this instance was declared dead by another; its leases are dropped', {
        instance: id,
      });
      options.onHoldsLost?.();
      await register();
    }
    await options.onBeat?.();
    const returned = await returnHolds(db, { expiredBeforeMs: now - expireMs });
    if (returned > 0) options.log?.info('returned the holds of dead instances', { keys: returned });
  };

  const registry: InstanceRegistry = {
    id,
    async start() {
      await register();
      timer = setInterval(() => void registry.beat(), heartbeatMs);
      timer.unref?.();
    },
    beat() {
      // One beat at a time; a database that is down fails it quietly (the next one retries).
      beating ??= beatOnce()
        .catch((err: unknown) => options.log?.warn('heartbeat failed', { err }))
        .finally(() => {
          beating = null;
        });
      return beating;
    },
    async stop() {
      if (timer) clearInterval(timer);
      await beating;
      await returnHolds(db, { owner: id });
    },
  };
  return registry;
}

/** Whether the instance that wrote a journal can still be running. */
async function isAlive(db: Kysely<DB>, owner: JournalOwner, expireMs: number): Promise<boolean> {
  // On this host a process that is gone is known at once; our own pid may be an instance in this
  // process, or a reused pid (a restarted container), so only the heartbeat can tell.
  if (owner.host === hostname() && owner.pid !== process.pid) {
    try {
      process.kill(owner.pid, 0);
    } catch (err) {
      // ESRCH: no such process. EPERM: it exists, under another user.
      return (err as NodeJS.ErrnoException).code === 'EPERM';
    }
  }
  const row = await db
    .selectFrom('gateway_instances')
    .select('heartbeat_at_ms')
    .where('id', '=', owner.id)
    .executeTakeFirst();
  return row !== undefined && Number(row.heartbeat_at_ms) >= Date.now() - expireMs;
}

/**
 * Replays the journals of dead instances found under `root`, returns their holds and deletes the
 * journals. Returns the number of entries replayed.
 */
export async function recoverJournals(
  db: Kysely<DB>,
  root: string,
  self: string,
  options: { expireMs?: number; log?: Logger } = {},
): Promise<number> {
  let replayed = 0;
  for (const journal of findJournals(root, self)) {
    if (await isAlive(db, journal.owner, options.expireMs ?? INSTANCE_EXPIRE_MS)) continue;
    for (const entry of journal.entries) await settleOne(db, entry, journal.owner.id);
    await returnHolds(db, { owner: journal.owner.id });
    journal.remove();
    replayed += journal.entries.length;
    options.log?.info('replayed the journal of a stopped instance', {
      instance: journal.owner.id,
      entries: journal.entries.length,
    });
  }
  return replayed;
}
