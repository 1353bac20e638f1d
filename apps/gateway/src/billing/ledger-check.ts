/**
 * `modelgate-gateway ledger check`: per key, what was granted, what `used` says, what the usage rows
 * add up to, what is still reserved, and any difference (LEDGER.md). Holds of instances that are no
 * longer alive are shown apart: that money waits for the next heartbeat of a live instance (or the
 * dead one's restart) to come back, so the check fails until it has.
 */
import { type Kysely, sql } from 'kysely';
import type { DB } from '../db/schema.js';
import { checkTable, shortName } from './check-table.js';
import { INSTANCE_EXPIRE_MS } from './instances.js';

export interface LedgerRow {
  keyId: number;
  name: string;
  /** null = unlimited. */
  granted: number | null;
  used: number;
  usage: number;
  /** Reserved by live instances' requests and leases, and by open video tasks. */
  reserved: number;
  /** Held by instances that stopped without returning it. */
  orphaned: number;
  /** used − usage − reserved − orphaned: 0 unless a write was lost or doubled. */
  difference: number;
}

/** One row per key; `expireMs` is when a silent instance counts as dead (as the heartbeat's). */
export async function checkLedger(
  db: Kysely<DB>,
  expireMs = INSTANCE_EXPIRE_MS,
): Promise<LedgerRow[]> {
  const liveSince = Date.now() - expireMs;
  const res = await sql<{
    id: string;
    name: string;
    quota: string | null;
    used: string;
    usage: string;
    live: string;
    orphaned: string;
    tasks: string;
  }>`select k.id, k.name, k.quota, k.used,
      coalesce(u.units, 0) as usage, coalesce(h.live, 0) as live, coalesce(h.orphaned, 0) as orphaned,
      coalesce(t.units, 0) as tasks
    from api_keys k
    left join (select key_id, sum(units) as units from usage group by key_id) u on u.key_id = k.id
    left join (
      select h.key_id,
        sum(h.units) filter (where i.heartbeat_at_ms >= ${liveSince}) as live,
        sum(h.units) filter (where i.id is null or i.heartbeat_at_ms < ${liveSince}) as orphaned
      from ledger_holds h left join gateway_instances i on i.id = h.owner group by h.key_id
    ) h on h.key_id = k.id
    left join (
      select key_id, sum(reserved_units) as units from video_tasks
      where status in ('pending', 'in_progress') group by key_id
    ) t on t.key_id = k.id
    order by k.id`.execute(db);
  return res.rows.map((r) => {
    const used = Number(r.used);
    const usage = Number(r.usage);
    const reserved = Number(r.live) + Number(r.tasks);
    const orphaned = Number(r.orphaned);
    return {
      keyId: Number(r.id),
      name: r.name,
      granted: r.quota === null ? null : Number(r.quota),
      used,
      usage,
      reserved,
      orphaned,
      difference: used - usage - reserved - orphaned,
    };
  });
}

/** Whether the ledger reconciles: no difference and nothing orphaned. */
export function ledgerBalances(rows: readonly LedgerRow[]): boolean {
  return rows.every((r) => r.difference === 0 && r.orphaned === 0);
}

/** The report as a fixed-width table, amounts in units (1 credit = 1,000,000 units). */
export function formatLedger(rows: readonly LedgerRow[]): string {
  const header = [
    'key',
    'name',
    'granted',
    'used',
    'usage rows',
    'reserved',
    'orphaned',
    'difference',
  ];
  const lines = rows.map((r) => [
    String(r.keyId),
    shortName(r.name),
    r.granted === null ? 'unlimited' : String(r.granted),
    String(r.used),
    String(r.usage),
    String(r.reserved),
    String(r.orphaned),
    String(r.difference),
  ]);
  const bad = rows.filter((r) => r.difference !== 0 || r.orphaned !== 0).length;
  const summary =
    bad === 0
      ? `ledger balances: ${rows.length} keys, difference 0`
      : `ledger does NOT balance: ${bad} of ${rows.length} keys differ or have orphaned holds`;
  return [...checkTable(header, lines), '', summary].join('\n');
}
