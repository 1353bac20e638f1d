/**
 * The billing SQL. Every change to a balance is ONE statement, so it is atomic on its own (no
 * transaction round trips) and behaves the same on PostgreSQL and PGlite:
 * - reserve: a conditional UPDATE (succeeds only if the balance covers the amount);
 * - settle: lock the row, compute the capped charge from the locked values, update it and insert
 *   the usage row — one statement of CTEs;
 * - the batched and leasing forms serve many requests per statement (see billing.ts).
 * Under READ COMMITTED an UPDATE re-checks its WHERE against the newest row version, and
 * `SELECT … FOR UPDATE` returns the newest version, so concurrent statements never lose an update.
 */
import { type Kysely, sql, type Transaction } from 'kysely';
import type { DB } from '../db/schema.js';

export type Executor = Kysely<DB> | Transaction<DB>;

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

export interface SettleItem {
  keyId: number;
  reserved: number;
  actual: number;
  meta: UsageMeta;
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

/** The usage row's values after `key_id`/`units`, typed so `VALUES` lists need no inference. */
function usageValues(meta: UsageMeta, createdAt: number) {
  return sql`${meta.kind ?? 'text'}::text, ${meta.model ?? null}::text, ${meta.inputTokens ?? null}::bigint, ${meta.outputTokens ?? null}::bigint, ${meta.seconds ?? null}::float8, ${meta.requestId ?? null}::text, ${meta.ref ?? null}::text, ${createdAt}::bigint`;
}

const USAGE_COLUMNS = sql`key_id, units, kind, model, input_tokens, output_tokens, seconds, request_id, ref, created_at`;

/**
 * Many usage rows as one `unnest` of column arrays, named `alias(<extra columns>, kind, model,
 * input_tokens, output_tokens, seconds, request_id, ref)`. Why not a VALUES list: that is ten
 * parameters per row and a new statement text for every batch size, parsed and planned each time;
 * this is the same short statement for any count (PGlite: ≈ 40 instead of ≈ 80 µs per row at 200
 * rows, PERFORMANCE.md round 4).
 */
function usageUnnest(
  alias: string,
  extra: ReadonlyArray<{ name: string; type: 'bigint' | 'int'; values: number[] }>,
  metas: readonly UsageMeta[],
) {
  const column = <T>(pick: (m: UsageMeta) => T) => metas.map(pick);
  const arrays = [
    ...extra.map((c) => sql`${c.values}::${sql.raw(c.type)}[]`),
    sql`${column((m) => m.kind ?? 'text')}::text[]`,
    sql`${column((m) => m.model ?? null)}::text[]`,
    sql`${column((m) => m.inputTokens ?? null)}::bigint[]`,
    sql`${column((m) => m.outputTokens ?? null)}::bigint[]`,
    sql`${column((m) => m.seconds ?? null)}::float8[]`,
    sql`${column((m) => m.requestId ?? null)}::text[]`,
    sql`${column((m) => m.ref ?? null)}::text[]`,
  ];
  const names = [
    ...extra.map((c) => c.name),
    'kind',
    'model',
    'input_tokens',
    'output_tokens',
    'seconds',
    'request_id',
    'ref',
  ];
  return sql`unnest(${sql.join(arrays)}) as ${sql.raw(alias)}(${sql.raw(names.join(', '))})`;
}

/** true when `units` were reserved. */
export async function reserveOne(t: Executor, keyId: number, units: number): Promise<boolean> {
  const res = await sql`update api_keys set used = used + ${units}::bigint
    where id = ${keyId}::bigint and (quota is null or used + ${units}::bigint <= quota)`.execute(t);
  return Number(res.numAffectedRows ?? 0) === 1;
}

/**
 * Replaces one reservation by the actual cost, capped so the balance never goes below zero, and
 * records the usage row. Returns the units charged (0, and no row, when the key does not exist).
 */
export async function settleOne(t: Executor, item: SettleItem): Promise<number> {
  const res = await sql<{ charged: number }>`with locked as (
      select id, quota, greatest(0, used - ${item.reserved}::bigint) as base
      from api_keys where id = ${item.keyId}::bigint for update
    ), calc as (
      select id, base, case when quota is null then ${item.actual}::bigint
        else greatest(0, least(${item.actual}::bigint, quota - base)) end as charged
      from locked
    ), upd as (
      update api_keys k set used = calc.base + calc.charged from calc where k.id = calc.id
      returning calc.charged
    ), ins as (
      insert into usage (${USAGE_COLUMNS})
      select ${item.keyId}::bigint, charged, ${usageValues(item.meta, nowSeconds())} from upd
    )
    select charged from upd`.execute(t);
  return res.rows[0] ? Number(res.rows[0].charged) : 0;
}

/**
 * Settles many reservations in one statement, per key, when the key's whole batch fits: the balance
 * still holds every reservation (used ≥ Σ reserved) and Σ actual stays within the quota. Then every
 * item is charged its full actual cost — the same result as settling them one by one (in the order
 * of ascending actual − reserved, which never hits the cap earlier than the total does). Returns the
 * ids settled; the items of other keys are left for `settleOne`.
 */
export async function settleBatch(t: Executor, items: readonly SettleItem[]): Promise<Set<number>> {
  const s = usageUnnest(
    's',
    [
      { name: 'ord', type: 'int', values: items.map((_, ord) => ord) },
      { name: 'key_id', type: 'bigint', values: items.map((i) => i.keyId) },
      { name: 'reserved', type: 'bigint', values: items.map((i) => i.reserved) },
      { name: 'actual', type: 'bigint', values: items.map((i) => i.actual) },
    ],
    items.map((i) => i.meta),
  );
  const res = await sql<{ id: number }>`with s as (
      select * from ${s}
    ), agg as (
      select key_id, sum(reserved) as r, sum(actual) as a from s group by key_id
    ), upd as (
      update api_keys k set used = k.used - agg.r + agg.a from agg
      where k.id = agg.key_id and k.used >= agg.r
        and (k.quota is null or k.used - agg.r + agg.a <= k.quota)
      returning k.id
    ), ins as (
      insert into usage (${USAGE_COLUMNS})
      select s.key_id, s.actual, s.kind, s.model, s.input_tokens, s.output_tokens, s.seconds,
        s.request_id, s.ref, ${nowSeconds()}::bigint
      from s join upd on upd.id = s.key_id order by s.ord
    )
    select id from upd`.execute(t);
  return new Set(res.rows.map((r) => Number(r.id)));
}

/** Gives a reservation back; records a 0-unit usage row when `meta` is given. */
export async function refundOne(
  t: Executor,
  keyId: number,
  reserved: number,
  meta: UsageMeta | undefined,
): Promise<void> {
  if (!meta) {
    await sql`update api_keys set used = greatest(0, used - ${reserved}::bigint)
      where id = ${keyId}::bigint`.execute(t);
    return;
  }
  await sql`with upd as (
      update api_keys set used = greatest(0, used - ${reserved}::bigint)
      where id = ${keyId}::bigint returning id
    )
    insert into usage (${USAGE_COLUMNS})
    select id, 0, ${usageValues(meta, nowSeconds())} from upd`.execute(t);
}

/**
 * Reserves `units` and, when the balance is far from its limit, leases `chunk` more units for this
 * instance to hand out without a round trip: the lease is granted only if the quota is unlimited or
 * at least `headroom × chunk` would remain. Returns null when `units` do not fit (nothing changed),
 * else the units leased (0 near the limit: then this is exactly `reserveOne`).
 */
export async function reserveWithLease(
  t: Executor,
  keyId: number,
  units: number,
  chunk: number,
  headroom: number,
): Promise<number | null> {
  const res = await sql<{ lease: number }>`with locked as (
      select id, case when quota is null or quota - used - ${units}::bigint >= ${chunk * headroom}::bigint
        then ${chunk}::bigint else 0 end as lease
      from api_keys
      where id = ${keyId}::bigint and (quota is null or used + ${units}::bigint <= quota)
      for update
    ), upd as (
      update api_keys k set used = k.used + ${units}::bigint + locked.lease from locked
      where k.id = locked.id
      returning locked.lease
    )
    select lease from upd`.execute(t);
  return res.rows[0] ? Number(res.rows[0].lease) : null;
}

/**
 * Inserts usage rows whose units were already taken from a lease, after returning the released
 * leases to their balances — in one statement, so a reader who sees the rows sees the balance too.
 */
export async function recordLeased(
  t: Executor,
  releases: ReadonlyMap<number, number>,
  rows: ReadonlyArray<{ keyId: number; units: number; meta: UsageMeta }>,
): Promise<void> {
  if (releases.size === 0 && rows.length === 0) return;
  const insert = sql`insert into usage (${USAGE_COLUMNS})
    select u.key_id, u.units, u.kind, u.model, u.input_tokens, u.output_tokens, u.seconds,
      u.request_id, u.ref, ${nowSeconds()}::bigint
    from ${usageUnnest(
      'u',
      [
        { name: 'key_id', type: 'bigint', values: rows.map((r) => r.keyId) },
        { name: 'units', type: 'bigint', values: rows.map((r) => r.units) },
      ],
      rows.map((r) => r.meta),
    )}`;
  if (releases.size === 0) {
    await insert.execute(t);
    return;
  }
  const release = sql`update api_keys k set used = greatest(0, k.used - r.units)
      from unnest(${[...releases.keys()]}::bigint[], ${[...releases.values()]}::bigint[])
        as r(id, units)
      where k.id = r.id returning k.id`;
  if (rows.length === 0) {
    await release.execute(t);
    return;
  }
  await sql`with rel as (${release}) ${insert}`.execute(t);
}
