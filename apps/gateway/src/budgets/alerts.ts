/**
 * Budget alerts: ONE `budget.threshold` webhook per (budget owner, period, threshold). State-based,
 * not edge-based: any reservation that finds a budget at or above 80 % (or refused) asks for the
 * alert; the `budget_alerts` row's primary key decides who writes it (`insert … on conflict do
 * nothing`), and only a newly inserted row writes the outbox row, in the same transaction. A crash
 * before the commit leaves neither, and the next reservation past the threshold writes both; a
 * crash after leaves both, and the deliverer sends it. No URL (the team's `alert_url`, else the
 * global one) or no signing secret: nothing is written.
 */
import type { BudgetThresholdEvent } from '@modelgate/core';
import type { Kysely, Transaction } from 'kysely';
import { randomBase62 } from '../db/ids.js';
import type { DB } from '../db/schema.js';
import type { BudgetLevel } from './levels.js';

const UNITS_PER_CREDIT = 1_000_000;

/** A database or a transaction on it. */
type Executor = Kysely<DB> | Transaction<DB>;

/** Where alerts go and what signs them (MODELGATE_BUDGET_ALERT_URL, MODELGATE_BUDGET_ALERT_SECRET). */
export interface BudgetAlertSettings {
  /** For budgets whose team has no `alert_url`; null: those send nothing. */
  url: string | null;
  /** `whsec_…`; null: no alert is written at all (it could not be signed). */
  secret: string | null;
}

type Threshold = BudgetThresholdEvent['data']['threshold'];

/**
 * The thresholds a level has reached: 80 at 80 % of the amount, 100 when a reservation was refused
 * for it or it is fully spent.
 *
 * @example
 * thresholdsReached({ ...level, amount: 100, spent: 85, refused: false }); // [80]
 */
export function thresholdsReached(level: BudgetLevel): Threshold[] {
  const reached: Threshold[] = [];
  if (level.spent * 5 >= level.amount * 4) reached.push(80);
  if (level.refused || level.spent >= level.amount) reached.push(100);
  return reached;
}

/** The alert URL of `teamId`'s team, else the global one. */
async function alertUrl(
  db: Executor,
  teamId: number | null,
  globalUrl: string | null,
): Promise<string | null> {
  if (teamId === null) return globalUrl;
  const team = await db
    .selectFrom('teams')
    .select('alert_url')
    .where('id', '=', teamId)
    .executeTakeFirst();
  return team?.alert_url ?? globalUrl;
}

function eventOf(level: BudgetLevel, threshold: Threshold, nowSeconds: number): string {
  const event: BudgetThresholdEvent = {
    type: 'budget.threshold',
    timestamp: nowSeconds,
    data: {
      scope: level.scope,
      ...(level.scope === 'key' ? { key_id: level.id } : { team_id: level.id }),
      threshold,
      amount: level.amount / UNITS_PER_CREDIT,
      spent: level.spent / UNITS_PER_CREDIT,
      period: level.period,
      period_start: level.periodStart,
      resets_at: level.resetsAt,
    },
  };
  return JSON.stringify(event);
}

/**
 * Writes the alert of one (level, threshold) unless it was already written: the alert row and its
 * outbox row in one transaction (the caller's, given one). Returns the delivery id, or null when
 * the alert row already existed.
 */
function writeAlert(
  db: Executor,
  level: BudgetLevel,
  threshold: Threshold,
  url: string,
  nowMs: number,
): Promise<string | null> {
  if (!db.isTransaction)
    return db.transaction().execute((trx) => writeAlert(trx, level, threshold, url, nowMs));
  return insertAlert(db, level, threshold, url, nowMs);
}

async function insertAlert(
  trx: Executor,
  level: BudgetLevel,
  threshold: Threshold,
  url: string,
  nowMs: number,
): Promise<string | null> {
  // A webhook-id like a task callback's (`enqueueCallback` in callbacks/index.ts): `msg_` + 24 base62 characters.
  const id = `msg_${randomBase62(24)}`;
  const inserted = await trx
    .insertInto('budget_alerts')
    .values({
      owner_kind: level.scope,
      owner_id: level.id,
      period_start: level.periodStart,
      threshold,
      delivery_id: id,
      created_at: Math.floor(nowMs / 1000),
    })
    .onConflict((oc) =>
      oc.columns(['owner_kind', 'owner_id', 'period_start', 'threshold']).doNothing(),
    )
    .returning('delivery_id')
    .executeTakeFirst();
  if (!inserted) return null;
  await trx
    .insertInto('callback_deliveries')
    .values({
      id,
      key_id: null,
      task_id: `budget:${level.scope}:${level.id}:${level.periodStart}:${threshold}`,
      event_type: 'budget.threshold',
      url,
      payload: eventOf(level, threshold, Math.floor(nowMs / 1000)),
      status: 'pending',
      next_attempt_at_ms: nowMs,
      created_at_ms: nowMs,
    })
    .execute();
  return id;
}

/** The alerts one instance knows are written: at most this many remembered (≈ 100 B each). */
const REMEMBERED = 10_000;

export interface BudgetAlerts {
  /**
   * Writes the alerts `levels` call for that are not written yet, each in a transaction of its
   * own; resolves to the new delivery ids. Levels come from reservations (reserve.ts): only budgets
   * at or above 80 % get here.
   */
  record(levels: readonly BudgetLevel[]): Promise<string[]>;
  /**
   * The same inside the caller's transaction (a video task's reservation): the alert and outbox
   * rows commit or roll back with the reservation.
   */
  recordIn(trx: Transaction<DB>, levels: readonly BudgetLevel[]): Promise<string[]>;
}

/** An alert's identity, as the `budget_alerts` primary key. */
const alertKey = (level: BudgetLevel, threshold: Threshold) =>
  `${level.scope}:${level.id}:${level.periodStart}:${threshold}`;

/**
 * @example
 * const alerts = createBudgetAlerts(db, { url: 'https://ops.example.com/budget', secret: 'whsec_…' });
 * await alerts.record(result.levels); // ['msg_…'] the first time a team passes 80 %, [] after
 */
export function createBudgetAlerts(
  db: Kysely<DB>,
  settings: BudgetAlertSettings,
  clock: () => number = Date.now,
): BudgetAlerts {
  // Each request above 80 % of a budget asks again; once this instance has seen the row exist it
  // skips the transaction, so the rest of the period costs no database work.
  const known = new Set<string>();
  const remember = (key: string) => {
    if (known.size >= REMEMBERED) known.clear();
    known.add(key);
  };

  const write = async (executor: Executor, levels: readonly BudgetLevel[]) => {
    if (settings.secret === null) return [];
    const written: string[] = [];
    for (const level of levels) {
      const due = thresholdsReached(level).filter((t) => !known.has(alertKey(level, t)));
      if (due.length === 0) continue;
      const url = await alertUrl(executor, level.teamId, settings.url);
      if (url === null) continue;
      for (const threshold of due) {
        const id = await writeAlert(executor, level, threshold, url, clock());
        if (id) written.push(id);
        // Inside the caller's transaction a new row may yet roll back: only a row found already
        // there (committed: a conflicting insert waits for the other's commit) is known.
        if (!executor.isTransaction || !id) remember(alertKey(level, threshold));
      }
    }
    return written;
  };

  return {
    record: (levels) => write(db, levels),
    recordIn: (trx, levels) => write(trx, levels),
  };
}
