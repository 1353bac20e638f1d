/**
 * The billing SQL. Every change to a balance is ONE statement, so it is atomic on its own (no
 * transaction round trips) and behaves the same on PostgreSQL and PGlite. Each statement keeps the
 * ledger equation (LEDGER.md) true:
 *   api_keys.used = Σ usage.units + Σ ledger_holds.units + Σ open video reservations
 * - reserve: a conditional UPDATE (succeeds only if the balance covers the amount) that adds the
 *   same units to the instance's hold;
 * - settle: lock the key, take the reservation back from the hold (as much as the hold still has),
 *   charge the actual cost capped by the quota, insert the usage row — one statement of CTEs;
 * - release: give units back from a hold to the balance (refunds, idle leases, dead instances).
 * Without an owner (video, inside the caller's transaction) the task row holds the reservation, so
 * no hold is touched.
 * Under READ COMMITTED an UPDATE re-checks its WHERE against the newest row version, and
 * `SELECT … FOR UPDATE` returns the newest version, so concurrent statements never lose an update.
 * The key row is locked before its hold rows wherever the plan allows; a deadlock between two
 * statements is detected by the database and the loser is retried (billing.ts).
 */
import { type Kysely, type RawBuilder, sql, type Transaction } from 'kysely';
import type { DB } from '../db/schema.js';

export type Executor = Kysely<DB> | Transaction<DB>;

/** What a usage row records besides the units. */
export interface UsageMeta {
  kind?: 'text' | 'image' | 'video' | (string & {});
  model?: string | null;
  /** Input tokens at the input price (cache reads and writes apart, below). */
  inputTokens?: number | null;
  cacheReadTokens?: number | null;
  cacheWrite5mTokens?: number | null;
  cacheWrite1hTokens?: number | null;
  outputTokens?: number | null;
  seconds?: number | null;
  requestId?: string | null;
  /** Free reference, e.g. the video task id. */
  ref?: string | null;
}

export interface SettleItem {
  keyId: number;
  /**
   * Units to take back from the reservation: from the owner's hold (as much as it still has), or,
   * without an owner, from `used` directly.
   */
  reserved: number;
  actual: number;
  meta: UsageMeta;
  /** The journal entry (`<owner>:<seq>`): a replay of an entry already written changes nothing. */
  entryId?: string | null;
  /**
   * A budgeted reservation's instant (Unix seconds, budgets/reserve.ts): the key's and its team's
   * `budget_spent` move by `charged − taken` while their stored period still contains it.
   * Null/absent for a reservation that took no budget.
   */
  budgetAt?: number | null;
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

/** The usage row's values after `key_id`/`units`, typed so `VALUES` lists need no inference. */
function usageValues(meta: UsageMeta, entryId: string | null, createdAt: number) {
  return sql`${meta.kind ?? 'text'}::text, ${meta.model ?? null}::text, ${meta.inputTokens ?? null}::bigint, ${meta.outputTokens ?? null}::bigint, ${meta.seconds ?? null}::float8, ${meta.requestId ?? null}::text, ${meta.ref ?? null}::text, ${entryId}::text, ${createdAt}::bigint, ${meta.cacheReadTokens ?? null}::bigint, ${meta.cacheWrite5mTokens ?? null}::bigint, ${meta.cacheWrite1hTokens ?? null}::bigint`;
}

const USAGE_COLUMNS = sql`key_id, units, kind, model, input_tokens, output_tokens, seconds, request_id, ref, entry_id, created_at, cache_read_tokens, cache_write_5m_tokens, cache_write_1h_tokens`;

/**
 * Many settlements as one `unnest` of column arrays. Why not a VALUES list: that is a dozen
 * parameters per row and a new statement text for every batch size, parsed and planned each time;
 * this is the same short statement for any count (PERFORMANCE.md round 4).
 */
function settleUnnest(items: readonly SettleItem[]) {
  const column = <T>(pick: (i: SettleItem, ord: number) => T) => items.map(pick);
  return sql`unnest(
      ${column((_, ord) => ord)}::int[], ${column((i) => i.keyId)}::bigint[],
      ${column((i) => i.reserved)}::bigint[], ${column((i) => i.actual)}::bigint[],
      ${column((i) => i.entryId ?? null)}::text[], ${column((i) => i.meta.kind ?? 'text')}::text[],
      ${column((i) => i.meta.model ?? null)}::text[], ${column((i) => i.meta.inputTokens ?? null)}::bigint[],
      ${column((i) => i.meta.outputTokens ?? null)}::bigint[], ${column((i) => i.meta.seconds ?? null)}::float8[],
      ${column((i) => i.meta.requestId ?? null)}::text[], ${column((i) => i.meta.ref ?? null)}::text[],
      ${column((i) => i.meta.cacheReadTokens ?? null)}::bigint[],
      ${column((i) => i.meta.cacheWrite5mTokens ?? null)}::bigint[],
      ${column((i) => i.meta.cacheWrite1hTokens ?? null)}::bigint[]
    ) as s(ord, key_id, reserved, actual, entry_id, kind, model, input_tokens, output_tokens, seconds,
      request_id, ref, cache_read_tokens, cache_write_5m_tokens, cache_write_1h_tokens)`;
}

/** Adds `units` to the owner's hold on the key, when `reserved` (a CTE returning `id`) did. */
function addHold(reserved: RawBuilder<unknown>, owner: string, units: RawBuilder<unknown>) {
  return sql`insert into ledger_holds (key_id, owner, units)
    select id, ${owner}::text, ${units} from ${reserved}
    on conflict (key_id, owner) do update set units = ledger_holds.units + excluded.units`;
}

/** true when `units` were reserved (and, with an owner, added to its hold). */
export async function reserveOne(
  t: Executor,
  keyId: number,
  units: number,
  owner: string | null = null,
): Promise<boolean> {
  const update = sql`update api_keys set used = used + ${units}::bigint
    where id = ${keyId}::bigint and (quota is null or used + ${units}::bigint <= quota)
    returning id`;
  if (owner === null) {
    const res = await update.execute(t);
    return res.rows.length === 1;
  }
  const res = await sql<{ id: number }>`with upd as (${update}),
      hold as (${addHold(sql`upd`, owner, sql`${units}::bigint`)})
    select id from upd`.execute(t);
  return res.rows.length === 1;
}

/** The key takes no lease: it has a budget, or its team has one (budgets/reserve.ts). */
export const BUDGETED = 'budgeted';

/**
 * Reserves `units` and, when the balance is far from its limit, leases `chunk` more units for this
 * instance to hand out without a round trip: the lease is granted only if the quota is unlimited or
 * at least `headroom × chunk` would remain. Both go into the owner's hold. Returns null when `units`
 * do not fit (nothing changed), {@link BUDGETED} (nothing changed) when a budget binds the key, else
 * the units leased (0 near the limit: then this is `reserveOne`).
 */
export async function reserveWithLease(
  t: Executor,
  keyId: number,
  units: number,
  chunk: number,
  headroom: number,
  owner: string,
): Promise<number | null | typeof BUDGETED> {
  const res = await sql<{ lease: number | null; budgeted: boolean | null }>`with locked as (
      select id, case when quota is null or quota - used - ${units}::bigint >= ${chunk * headroom}::bigint
        then ${chunk}::bigint else 0 end as lease,
        budget_amount is not null or (team_id is not null and exists (
          select 1 from teams t where t.id = team_id and t.budget_amount is not null)) as budgeted
      from api_keys
      where id = ${keyId}::bigint and (quota is null or used + ${units}::bigint <= quota)
      for update
    ), upd as (
      update api_keys k set used = k.used + ${units}::bigint + locked.lease from locked
      where k.id = locked.id and not locked.budgeted
      returning k.id, locked.lease
    ), hold as (${addHold(sql`upd`, owner, sql`${units}::bigint + upd.lease`)})
    select (select lease from upd) as lease, (select budgeted from locked) as budgeted`.execute(t);
  const row = res.rows[0];
  if (row?.budgeted) return BUDGETED;
  return row?.lease != null ? Number(row.lease) : null;
}

/**
 * The budget part of a settlement (empty SQL without `budgetAt`, so unbudgeted settlements stay the
 * statement they were): both budgets move by `charged − taken` — the unused part of what the hold
 * still held goes back, an overshoot is added — in the period that reserved only. `taken` rather
 * than `reserved`: a hold returned with its dead instance already gave its units back to the
 * budgets (instances.ts), so a journal replayed after that adds the whole charge. The usage row
 * records which budgets moved (`budget_at`, `budget_key`, `budget_team_id`), what `ledger check`
 * proves each budget's spend from. The key row is already locked by the statement, the team row is
 * locked after it (the order reservations take, budgets/reserve.ts).
 */
function budgetSettlement(item: SettleItem) {
  if (item.budgetAt == null) {
    return { key: sql``, returning: sql``, team: sql``, columns: sql``, values: sql`` };
  }
  const at = sql`${item.budgetAt}::bigint`;
  const inPeriod = (t: string) =>
    sql`coalesce(${sql.ref(`${t}.budget_period_start`)} <= ${at} and ${at} < ${sql.ref(`${t}.budget_period_end`)}, false)`;
  const delta = sql`charge.charged - charge.taken`;
  return {
    key: sql`, budget_spent = case when ${inPeriod('k')}
      then greatest(0, k.budget_spent + ${delta}) else k.budget_spent end`,
    returning: sql`, k.team_id, ${delta} as delta, ${inPeriod('k')} as key_moved`,
    team: sql`, team as (
      update teams t set budget_spent = greatest(0, t.budget_spent + upd.delta) from upd
      where t.id = upd.team_id and ${inPeriod('t')}
      returning t.id
    )`,
    columns: sql`, budget_at, budget_key, budget_team_id`,
    values: sql`, case when upd.key_moved or exists (select 1 from team) then ${at} end,
      upd.key_moved, (select id from team)`,
  };
}

/**
 * Replaces one reservation by the actual cost, capped so the balance never goes below zero, and
 * records the usage row. Returns the units charged (0, and no row, when the key does not exist or
 * the entry was already written).
 */
export async function settleOne(
  t: Executor,
  item: SettleItem,
  owner: string | null = null,
): Promise<number> {
  const entryId = item.entryId ?? null;
  const taken =
    owner === null
      ? sql`least(used, ${item.reserved}::bigint)`
      : sql`least(coalesce((select units from hold), 0), ${item.reserved}::bigint)`;
  const budget = budgetSettlement(item);
  const res = await sql<{ charged: number }>`with locked as (
      select id, quota, used from api_keys
      where id = ${item.keyId}::bigint
        and (${entryId}::text is null or not exists (select 1 from usage where entry_id = ${entryId}::text))
      for update
    ), hold as (
      select units from ledger_holds
      where key_id = (select id from locked) and owner = ${owner}::text for update
    ), calc as (
      select id, quota, used - ${taken} as base, ${taken} as taken from locked
    ), charge as (
      select id, base, taken, case when quota is null then ${item.actual}::bigint
        else greatest(0, least(${item.actual}::bigint, quota - base)) end as charged
      from calc
    ), upd as (
      update api_keys k set used = charge.base + charge.charged${budget.key}
      from charge where k.id = charge.id
      returning charge.charged, charge.taken${budget.returning}
    )${budget.team}, held as (
      update ledger_holds h set units = h.units - upd.taken from upd
      where h.key_id = ${item.keyId}::bigint and h.owner = ${owner}::text and upd.taken > 0
    ), ins as (
      insert into usage (${USAGE_COLUMNS}${budget.columns})
      select ${item.keyId}::bigint, charged, ${usageValues(item.meta, entryId, nowSeconds())}${budget.values}
      from upd
    )
    select charged from upd`.execute(t);
  return res.rows[0] ? Number(res.rows[0].charged) : 0;
}

/**
 * Settles many reservations of one owner in one statement, per key, when the key's whole batch
 * fits: its hold still covers every reservation, Σ actual stays within the quota and none of its
 * entries was written before. Then every item is charged its full actual cost — the same result as
 * settling them one by one. Returns the ids settled; the items of other keys are left for
 * `settleOne`.
 */
export async function settleBatch(
  t: Executor,
  items: readonly SettleItem[],
  owner: string,
): Promise<Set<number>> {
  const res = await sql<{ id: number }>`with s as (
      select * from ${settleUnnest(items)}
    ), agg as (
      select key_id, sum(reserved) as r, sum(actual) as a, array_agg(entry_id) as ids
      from s group by key_id
    ), k as (
      select id, used, quota from api_keys where id in (select key_id from agg) order by id for update
    ), h as (
      select key_id, units from ledger_holds
      where owner = ${owner}::text and key_id in (select id from k) for update
    ), ok as (
      select agg.key_id, agg.r, agg.a from agg join k on k.id = agg.key_id join h on h.key_id = agg.key_id
      where h.units >= agg.r and (k.quota is null or k.used - agg.r + agg.a <= k.quota)
        and not exists (select 1 from usage u where u.entry_id = any(agg.ids))
    ), upd as (
      update api_keys k set used = k.used - ok.r + ok.a from ok where k.id = ok.key_id returning k.id
    ), held as (
      update ledger_holds h set units = h.units - ok.r from ok
      where h.key_id = ok.key_id and h.owner = ${owner}::text
    ), ins as (
      insert into usage (${USAGE_COLUMNS})
      select s.key_id, s.actual, s.kind, s.model, s.input_tokens, s.output_tokens, s.seconds,
        s.request_id, s.ref, s.entry_id, ${nowSeconds()}::bigint, s.cache_read_tokens,
        s.cache_write_5m_tokens, s.cache_write_1h_tokens
      from s join ok on ok.key_id = s.key_id order by s.ord
    )
    select id from upd`.execute(t);
  return new Set(res.rows.map((r) => Number(r.id)));
}

/**
 * Settles budgeted reservations (each moves its key's and team's budgets, so none fits
 * `settleBatch`) one statement each, in ONE transaction: one commit, i.e. one WAL flush, for the
 * batch instead of one per settlement (a flush is ≈ 2.6 ms on the reference machine, the bulk of a
 * budgeted request's cost). Every key row is locked first, in id order, and only then the team rows
 * (by the settlements): a reservation, which locks a key and then its team, can never wait in a
 * cycle with it. Two such batches can still meet on two teams in opposite orders; the database
 * aborts one and its caller settles those items one by one. Returns the units charged, in order.
 */
export async function settleInOneTransaction(
  db: Kysely<DB>,
  items: readonly SettleItem[],
  owner: string,
): Promise<number[]> {
  const keyIds = [...new Set(items.map((i) => i.keyId))].sort((a, b) => a - b);
  return db.transaction().execute(async (trx) => {
    await sql`select id from api_keys where id = any(${keyIds}::bigint[])
      order by id for update`.execute(trx);
    const charged: number[] = [];
    for (const item of items) charged.push(await settleOne(trx, item, owner));
    return charged;
  });
}

/**
 * Gives units back from the owner's holds to the balances (a refund, an idle lease): per key, as
 * much of `units` as the hold still has.
 */
export async function releaseHolds(
  t: Executor,
  owner: string,
  releases: ReadonlyMap<number, number>,
): Promise<void> {
  if (releases.size === 0) return;
  await sql`with r as (
      select * from unnest(${[...releases.keys()]}::bigint[], ${[...releases.values()]}::bigint[])
        as r(key_id, units)
    ), k as (
      select id from api_keys where id in (select key_id from r) order by id for update
    ), h as (
      select h.key_id, least(h.units, r.units) as take
      from ledger_holds h join r on r.key_id = h.key_id
      where h.owner = ${owner}::text and h.key_id in (select id from k)
      for update of h
    ), held as (
      update ledger_holds x set units = x.units - h.take from h
      where x.key_id = h.key_id and x.owner = ${owner}::text
    )
    update api_keys k set used = k.used - h.take from h where k.id = h.key_id`.execute(t);
}

/** Gives a reservation held by a task row back (video); records a 0-unit usage row with `meta`. */
export async function refundOne(
  t: Executor,
  keyId: number,
  reserved: number,
  meta: UsageMeta | undefined,
): Promise<void> {
  if (!meta) {
    await sql`update api_keys set used = used - least(used, ${reserved}::bigint)
      where id = ${keyId}::bigint`.execute(t);
    return;
  }
  await sql`with upd as (
      update api_keys set used = used - least(used, ${reserved}::bigint)
      where id = ${keyId}::bigint returning id
    )
    insert into usage (${USAGE_COLUMNS})
    select id, 0, ${usageValues(meta, null, nowSeconds())} from upd`.execute(t);
}
