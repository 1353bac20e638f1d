/** GET /v1/callbacks/deliveries: the key's deliveries with their attempts, newest first. */
import type { CallbackDelivery, CallbackDeliveryList } from '@modelgate/core';
import type { Kysely } from 'kysely';
import { cursorPage } from '../db/cursor-page.js';
import type { DB } from '../db/schema.js';

export interface ListDeliveriesQuery {
  /** 1–100, default 20. */
  limit?: number;
  /** The previous page's `next_cursor` (a delivery id). */
  after?: string | null;
  taskId?: string | null;
}

const seconds = (ms: number) => Math.floor(ms / 1000);

/** The attempts of these deliveries, oldest first, by delivery id. */
async function attemptsByDelivery(
  db: Kysely<DB>,
  deliveryIds: string[],
): Promise<Map<string, CallbackDelivery['attempts']>> {
  const attempts =
    deliveryIds.length === 0
      ? []
      : await db
          .selectFrom('callback_attempts')
          .select(['delivery_id', 'at_ms', 'status_code', 'latency_ms', 'error'])
          .where('delivery_id', 'in', deliveryIds)
          .orderBy('id')
          .execute();
  const byDelivery = new Map<string, CallbackDelivery['attempts']>();
  for (const attempt of attempts) {
    const list = byDelivery.get(attempt.delivery_id) ?? [];
    list.push({
      at: seconds(attempt.at_ms),
      status_code: attempt.status_code,
      latency_ms: attempt.latency_ms,
      error: attempt.error,
    });
    byDelivery.set(attempt.delivery_id, list);
  }
  return byDelivery;
}

/**
 * One page of a key's deliveries. The cursor is the last delivery's id; an id that is not one of the
 * key's deliveries is a 400 (`param: after`).
 *
 * @example
 * const page = await listDeliveries(db, key.id, { limit: 20, taskId: 'vt_…' });
 */
export async function listDeliveries(
  db: Kysely<DB>,
  keyId: number,
  query: ListDeliveriesQuery,
): Promise<CallbackDeliveryList> {
  let deliveries = db
    .selectFrom('callback_deliveries')
    .select([
      'id',
      'task_id',
      'event_type',
      'url',
      'status',
      'created_at_ms',
      'next_attempt_at_ms',
      'delivered_at_ms',
    ]);
  if (query.taskId) deliveries = deliveries.where('task_id', '=', query.taskId);
  const page = await cursorPage(db, 'callback_deliveries', deliveries, {
    keyId,
    limit: query.limit ?? 20,
    after: query.after,
    invalidCursorMessage: 'after is not a cursor of this list.',
  });
  const byDelivery = await attemptsByDelivery(
    db,
    page.rows.map((row) => row.id),
  );
  const data: CallbackDelivery[] = page.rows.map((row) => ({
    id: row.id,
    object: 'callback.delivery',
    task_id: row.task_id,
    event_type: row.event_type,
    url: row.url,
    status: row.status,
    attempts: byDelivery.get(row.id) ?? [],
    created_at: seconds(row.created_at_ms),
    next_attempt_at:
      row.status === 'pending' && row.next_attempt_at_ms !== null
        ? Math.ceil(row.next_attempt_at_ms / 1000)
        : null,
    delivered_at: row.delivered_at_ms === null ? null : seconds(row.delivered_at_ms),
  }));
  return { object: 'list', data, has_more: page.hasMore, next_cursor: page.nextCursor };
}
