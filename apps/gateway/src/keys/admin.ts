/**
 * Keys as an administrator sees them (`GET /v1/keys`, `GET /v1/keys/{key_id}`): never the secret,
 * always the state, quota and spend. Pages go newest first by id (db/cursor-page.ts).
 */
import type { ApiKey, ApiKeyList, ApiKeyStatus, KeyBudget } from '@modelgate/core';
import type { Kysely } from 'kysely';
import { currentBudget, type StoredBudget } from '../budgets/index.js';
import { containsPattern } from '../db/contains-pattern.js';
import { idPage } from '../db/cursor-page.js';
import type { DB } from '../db/schema.js';
import { type KeyRecord, rowToRecord } from './keys.js';

/** Where a key stands at `now` (Unix seconds). */
export function keyStatus(record: KeyRecord, now: number): ApiKeyStatus {
  if (record.revokedAt !== null) return 'revoked';
  if (record.expiresAt !== null && record.expiresAt <= now) return 'expired';
  return 'active';
}

/** A budget as the key object shows it (units, Unix seconds), its current period at `now`. */
export function toKeyBudget(budget: StoredBudget, now: number, timeZone: string): KeyBudget {
  const current = currentBudget(budget, now, timeZone);
  return {
    amount: current.amount,
    period: current.period,
    spent: current.spent,
    period_start: current.periodStart,
    resets_at: current.resetsAt,
  };
}

/**
 * `timeZone` is where budget periods start (MODELGATE_BUDGET_TIME_ZONE).
 * @example
 * const view = toApiKey(await keys.get(42), Math.floor(Date.now() / 1000), 'UTC');
 */
export function toApiKey(record: KeyRecord, now: number, timeZone: string): ApiKey {
  return {
    object: 'api_key',
    id: record.id,
    name: record.name,
    key_prefix: record.keyPrefix,
    role: record.role,
    status: keyStatus(record, now),
    quota: record.quota,
    used: record.used,
    remaining: record.quota === null ? null : Math.max(0, record.quota - record.used),
    models: record.models,
    rpm: record.rpm,
    tpm: record.tpm,
    created_at: record.createdAt,
    expires_at: record.expiresAt,
    revoked_at: record.revokedAt,
    budget: record.budget && toKeyBudget(record.budget, now, timeZone),
    team_id: record.teamId,
  };
}

export interface KeyListQuery {
  limit: number;
  after?: string;
  status?: ApiKeyStatus;
  /** Part of the name, matched ignoring case. */
  name?: string;
}

/**
 * One page of keys, newest first.
 * @example
 * const page = await listKeys(db, { limit: 20, status: 'active' }, now, 'UTC');
 */
export async function listKeys(
  db: Kysely<DB>,
  query: KeyListQuery,
  now: number,
  timeZone: string,
): Promise<ApiKeyList> {
  let select = db.selectFrom('api_keys').selectAll();
  if (query.status === 'revoked') select = select.where('revoked_at', 'is not', null);
  if (query.status === 'expired') {
    select = select.where('revoked_at', 'is', null).where('expires_at', '<=', now);
  }
  if (query.status === 'active') {
    select = select
      .where('revoked_at', 'is', null)
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]));
  }
  // A scan of the keys table: 10,000 keys take a few milliseconds, and a trigram index would need
  // an extension the embedded database does not ship.
  if (query.name !== undefined) select = select.where('name', 'ilike', containsPattern(query.name));
  const page = await idPage(select, query);
  return {
    object: 'list',
    data: page.rows.map((row) => toApiKey(rowToRecord(row), now, timeZone)),
    has_more: page.hasMore,
    next_cursor: page.nextCursor,
  };
}
