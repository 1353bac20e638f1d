/**
 * The audit log: who changed what, when, with the values before and after. `recordAudit` writes an
 * entry inside the transaction of the change it records, so a change never lands without its entry
 * (and a rolled-back change takes its entry with it); `listAudit` pages through them, newest first.
 * Nothing updates or deletes an entry.
 */
import type { AuditAction, AuditEntry, AuditEntryList } from '@modelgate/core';
import type { Kysely, Transaction } from 'kysely';
import { idPage } from '../db/cursor-page.js';
import type { DB } from '../db/schema.js';
import type { KeyRecord } from '../keys/keys.js';

export type { AuditLogTable } from './tables.js';

/** Who makes a change: the administrator key, and the request it came in. */
export interface Actor {
  keyId: number;
  requestId: string | null;
}

export interface AuditChange {
  action: AuditAction;
  target: AuditEntry['target'];
  before: AuditEntry['before'];
  after: AuditEntry['after'];
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

/**
 * @example
 * await db.transaction().execute(async (trx) => {
 *   const after = await keys.update(42, { quota: 10_000_000 }, trx);
 *   await recordAudit(trx, actor, { action: 'key.update', target: keyTarget(42), before, after: keySettings(after) });
 * });
 */
export async function recordAudit(
  trx: Transaction<DB>,
  actor: Actor,
  change: AuditChange,
): Promise<void> {
  await trx
    .insertInto('audit_log')
    .values({
      created_at: nowSeconds(),
      action: change.action,
      actor_key_id: actor.keyId,
      request_id: actor.requestId,
      target_type: change.target.type,
      target_id: change.target.id,
      before: change.before === null ? null : JSON.stringify(change.before),
      after: change.after === null ? null : JSON.stringify(change.after),
    })
    .execute();
}

/** A key as the audit log records it: its settings and state, never its secret or its spend. */
export function keySettings(record: KeyRecord): Record<string, unknown> {
  return {
    name: record.name,
    role: record.role,
    quota: record.quota,
    models: record.models,
    rpm: record.rpm,
    tpm: record.tpm,
    expires_at: record.expiresAt,
    revoked_at: record.revokedAt,
    budget: record.budget && { amount: record.budget.amount, period: record.budget.period },
    team_id: record.teamId,
  };
}

/** Only the fields that differ between two snapshots, so an entry shows what changed. */
export function changedFields(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
): { before: Record<string, unknown>; after: Record<string, unknown> } {
  const was: Record<string, unknown> = {};
  const now: Record<string, unknown> = {};
  for (const name of Object.keys(after)) {
    if (JSON.stringify(before[name]) === JSON.stringify(after[name])) continue;
    was[name] = before[name];
    now[name] = after[name];
  }
  return { before: was, after: now };
}

export const teamTarget = (teamId: number): AuditEntry['target'] => ({
  type: 'team',
  id: String(teamId),
});

export const keyTarget = (keyId: number): AuditEntry['target'] => ({
  type: 'key',
  id: String(keyId),
});

export interface AuditQuery {
  limit: number;
  after?: string;
  action?: AuditAction;
  key_id?: number;
}

/**
 * One page of entries, newest first; `key_id` keeps the entries about that key (its settings and
 * its callback secret).
 * @example const page = await listAudit(db, { limit: 20, action: 'key.revoke' });
 */
export async function listAudit(db: Kysely<DB>, query: AuditQuery): Promise<AuditEntryList> {
  let select = db.selectFrom('audit_log').selectAll();
  if (query.action) select = select.where('action', '=', query.action);
  if (query.key_id !== undefined) select = select.where('target_id', '=', String(query.key_id));
  const page = await idPage(select, query);
  return {
    object: 'list',
    data: page.rows.map(
      (row): AuditEntry => ({
        object: 'audit_entry',
        id: row.id,
        created_at: row.created_at,
        action: row.action,
        actor_key_id: row.actor_key_id,
        request_id: row.request_id,
        target: { type: row.target_type, id: row.target_id },
        before: row.before,
        after: row.after,
      }),
    ),
    has_more: page.hasMore,
    next_cursor: page.nextCursor,
  };
}
