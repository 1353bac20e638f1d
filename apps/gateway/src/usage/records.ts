/**
 * The charges behind the usage report (`GET /v1/usage/records`): the ledger's usage rows, newest
 * first, paged by id (db/cursor-page.ts).
 */
import type { UsageKind, UsageRecord, UsageRecordList } from '@modelgate/core';
import { zUsageKind } from '@modelgate/core/zod';
import type { Kysely, Selectable } from 'kysely';
import { unitsToCredits } from '../billing/billing.js';
import type { UsageTable } from '../db/account-tables.js';
import { idPage } from '../db/cursor-page.js';
import type { DB } from '../db/schema.js';
import { internalError } from '../errors/api-error.js';

export interface UsageRecordQuery {
  limit: number;
  after?: string;
  /** Only this key's rows; undefined = every key (administrators only: the route decides). */
  keyId?: number;
  model?: string;
  kind?: UsageKind;
  requestId?: string;
  startTime?: number;
  endTime?: number;
}

/**
 * @example
 * const page = await listUsageRecords(db, { limit: 20, keyId: 42, requestId: 'req_…' });
 */
export async function listUsageRecords(
  db: Kysely<DB>,
  query: UsageRecordQuery,
): Promise<UsageRecordList> {
  let select = db.selectFrom('usage').selectAll();
  if (query.keyId !== undefined) select = select.where('key_id', '=', query.keyId);
  if (query.model !== undefined) select = select.where('model', '=', query.model);
  if (query.kind !== undefined) select = select.where('kind', '=', query.kind);
  if (query.requestId !== undefined) select = select.where('request_id', '=', query.requestId);
  if (query.startTime !== undefined) select = select.where('created_at', '>=', query.startTime);
  if (query.endTime !== undefined) select = select.where('created_at', '<', query.endTime);
  const page = await idPage(select, query);
  return {
    object: 'list',
    data: page.rows.map(toRecord),
    has_more: page.hasMore,
    next_cursor: page.nextCursor,
  };
}

/** Every kind the gateway writes is one the API names; another would be a bug, not a figure to guess. */
function usageKind(kind: string): UsageKind {
  const known = zUsageKind.safeParse(kind);
  if (known.success) return known.data;
  throw internalError(`A usage record has an unknown kind: ${kind}.`);
}

const nullableNumber = (value: number | string | null) => (value === null ? null : Number(value));

function toRecord(row: Selectable<UsageTable>): UsageRecord {
  const units = Number(row.units);
  const kind = usageKind(row.kind);
  return {
    object: 'usage_record',
    id: Number(row.id),
    created_at: Number(row.created_at),
    key_id: Number(row.key_id),
    kind,
    model: row.model,
    input_tokens: nullableNumber(row.input_tokens),
    cache_read_tokens: nullableNumber(row.cache_read_tokens),
    cache_write_5m_tokens: nullableNumber(row.cache_write_5m_tokens),
    cache_write_1h_tokens: nullableNumber(row.cache_write_1h_tokens),
    output_tokens: nullableNumber(row.output_tokens),
    video_seconds: nullableNumber(row.seconds),
    units,
    cost: unitsToCredits(units),
    request_id: row.request_id,
    task_id: kind === 'video' ? row.ref : null,
  };
}
