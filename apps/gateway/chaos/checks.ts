/**
 * End-of-run checks that read the truth from the database and from `ledger check`, not from what
 * the clients saw: every video task final (none stuck past its deadline), no key past its quota,
 * and the ledger difference.
 */
import { spawn } from 'node:child_process';
import pg from 'pg';

const FINAL = ['completed', 'failed', 'cancelled'];

export interface TaskRow {
  id: string;
  status: string;
  deadline_at_ms: string;
  callback_url: string | null;
}

export async function query<T extends pg.QueryResultRow>(url: string, text: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(text)).rows;
  } finally {
    await client.end();
  }
}

export const readTasks = (url: string) =>
  query<TaskRow>(url, 'select id, status, deadline_at_ms, callback_url from video_tasks');

/** Polls until every task is final or `untilMs`; returns the last rows read. */
export async function waitTasksFinal(url: string, untilMs: number): Promise<TaskRow[]> {
  for (;;) {
    const rows = await readTasks(url);
    if (rows.every((r) => FINAL.includes(r.status)) || Date.now() > untilMs) return rows;
    await new Promise((r) => setTimeout(r, 500));
  }
}

export function taskFigures(rows: TaskRow[], nowMs: number) {
  const open = rows.filter((r) => !FINAL.includes(r.status));
  return {
    total: rows.length,
    byStatus: Object.fromEntries(
      [...new Set(rows.map((r) => r.status))].map((s) => [
        s,
        rows.filter((r) => r.status === s).length,
      ]),
    ),
    open: open.length,
    stuckPastDeadline: open.filter((r) => Number(r.deadline_at_ms) < nowMs).map((r) => r.id),
  };
}

/** Keys whose `used` or settled usage exceed their quota. */
export async function keysPastQuota(url: string) {
  return query<{ id: number; quota: string; used: string; usage: string }>(
    url,
    `select k.id, k.quota, k.used, coalesce((select sum(u.units) from usage u where u.key_id = k.id), 0) as usage
       from api_keys k
      where k.quota is not null
        and (k.used > k.quota or coalesce((select sum(u.units) from usage u where u.key_id = k.id), 0) > k.quota)`,
  );
}

/**
 * Budgets whose `spent` exceeds their amount plus what is still in flight (its keys' holds and open
 * video tasks): a reservation past a budget that the conditional UPDATEs should have refused.
 */
export async function budgetsPastAmount(url: string) {
  const inFlight = (keys: string) => `coalesce((select sum(h.units) from ledger_holds h
      where h.key_id in (${keys})), 0) + coalesce((select sum(v.reserved_units) from video_tasks v
      where v.key_id in (${keys}) and v.status in ('pending', 'in_progress')), 0)`;
  return query<{ scope: string; id: string; spent: string }>(
    url,
    `select 'key' as scope, k.id, k.budget_spent as spent from api_keys k
      where k.budget_amount is not null and k.budget_spent > k.budget_amount + ${inFlight('k.id')}
     union all
     select 'team', t.id, t.budget_spent from teams t
      where t.budget_amount is not null
        and t.budget_spent > t.budget_amount + ${inFlight('select id from api_keys where team_id = t.id')}`,
  );
}

export interface LedgerResult {
  code: number | null;
  output: string;
  /** Σ |difference| over the keys listed. */
  difference: number;
  orphaned: number;
  /** Σ |difference| over the budgets listed (their lines start with `key <id>` or `team <id>`). */
  budgetDifference: number;
}

/** Runs `main.js ledger check --sweep` on one data directory and parses its table. */
export function ledgerCheck(main: string, databaseUrl: string, dataDir: string) {
  return new Promise<LedgerResult>((done) => {
    const child = spawn(process.execPath, [main, 'ledger', 'check', '--sweep'], {
      env: { PATH: process.env.PATH ?? '', DATABASE_URL: databaseUrl, MODELGATE_DATA_DIR: dataDir },
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => {
      output += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      output += d.toString();
    });
    child.once('exit', (code) => {
      let difference = 0;
      let orphaned = 0;
      let budgetDifference = 0;
      for (const line of output.split('\n')) {
        const cells = line.trim().split(/\s+/);
        if (/^(key|team)$/.test(cells[0] ?? '') && /^\d+$/.test(cells[1] ?? '')) {
          budgetDifference += Math.abs(Number(cells.at(-1)));
          continue;
        }
        if (!/^\d+$/.test(cells[0] ?? '') || cells.length < 8) continue;
        difference += Math.abs(Number(cells.at(-1)));
        orphaned += Math.abs(Number(cells.at(-2)));
      }
      done({ code, output, difference, orphaned, budgetDifference });
    });
  });
}

/**
 * What the clients were served but the ledger did not charge: served chats (by `x-request-id`)
 * without a usage row, and completed video tasks without one. `ledger check` alone cannot see a
 * charge that vanished together with its reservation; this can.
 */
export async function unchargedAnswers(url: string, servedRequestIds: string[]) {
  const text = await query<{ request_id: string | null; units: string }>(
    url,
    `select request_id, units from usage where kind = 'text'`,
  );
  const charged = new Set(text.filter((r) => Number(r.units) > 0).map((r) => r.request_id));
  const videos = await query<{ id: string }>(
    url,
    `select t.id from video_tasks t
      where t.status = 'completed'
        and not exists (select 1 from usage u where u.ref = t.id and u.kind = 'video' and u.units > 0)`,
  );
  return {
    chats: servedRequestIds.filter((id) => !charged.has(id)),
    videos: videos.map((v) => v.id),
  };
}
