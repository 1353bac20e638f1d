/**
 * GET /v1/callbacks/deliveries: the key's deliveries (or the budget alerts, which no key owns) with
 * their attempts, newest first; and POST …/{id}/redeliver: a finished delivery sent again.
 */
import type { CallbackDelivery, CallbackDeliveryList } from '@modelgate/core';
import type { ExpressionBuilder, Kysely, Selectable } from 'kysely';
import { cursorPage } from '../db/cursor-page.js';
import type { DB } from '../db/schema.js';
import { conflict, notFound } from '../errors/api-error.js';
import type { CallbackDeliveriesTable } from './tables.js';

export interface ListDeliveriesQuery {
  /** 1–100, default 20. */
  limit?: number;
  /** The previous page's `next_cursor` (a delivery id). */
  after?: string | null;
  taskId?: string | null;
}

const seconds = (ms: number) => Math.floor(ms / 1000);

/** The columns a delivery shows (never its payload, which can be large). */
const LISTED = [
  'id',
  'task_id',
  'event_type',
  'url',
  'status',
  'created_at_ms',
  'next_attempt_at_ms',
  'delivered_at_ms',
] as const;

type ListedRow = Pick<Selectable<CallbackDeliveriesTable>, (typeof LISTED)[number]>;

function toApiDelivery(row: ListedRow, attempts: CallbackDelivery['attempts']): CallbackDelivery {
  return {
    id: row.id,
    object: 'callback.delivery',
    task_id: row.task_id,
    event_type: row.event_type,
    url: row.url,
    status: row.status,
    attempts,
    created_at: seconds(row.created_at_ms),
    next_attempt_at:
      row.status === 'pending' && row.next_attempt_at_ms !== null
        ? Math.ceil(row.next_attempt_at_ms / 1000)
        : null,
    delivered_at: row.delivered_at_ms === null ? null : seconds(row.delivered_at_ms),
  };
}

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
 * One page of a key's deliveries, or of the budget alerts' (`keyId` null: they belong to no key).
 * The cursor is the last delivery's id; an id that is not one of the listed deliveries is a 400
 * (`param: after`).
 *
 * @example
 * const page = await listDeliveries(db, key.id, { limit: 20, taskId: 'vt_…' });
 * const alerts = await listDeliveries(db, null, { limit: 20 });
 */
export async function listDeliveries(
  db: Kysely<DB>,
  keyId: number | null,
  query: ListDeliveriesQuery,
): Promise<CallbackDeliveryList> {
  let deliveries = db.selectFrom('callback_deliveries').select(LISTED);
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
  const data = page.rows.map((row) => toApiDelivery(row, byDelivery.get(row.id) ?? []));
  return { object: 'list', data, has_more: page.hasMore, next_cursor: page.nextCursor };
}

/** Who may send a delivery again: the key whose task it is, and an administrator a budget alert. */
export interface Redeliverer {
  keyId: number;
  admin: boolean;
}

function redeliverableBy({ keyId, admin }: Redeliverer) {
  return (eb: ExpressionBuilder<DB, 'callback_deliveries'>) =>
    admin ? eb.or([eb('key_id', '=', keyId), eb('key_id', 'is', null)]) : eb('key_id', '=', keyId);
}

/**
 * Makes a delivered or failed delivery of the key's (or, for an administrator, a budget alert)
 * pending again, due now, with a fresh retry schedule (attempt count 0). The payload and id stay:
 * the receiver sees the same event and webhook-id. One conditional UPDATE, so two redelivers at
 * once make one new run, not two.
 *
 * @example
 * const delivery = await redeliver(db, { keyId: key.id, admin: false }, 'msg_…', Date.now());
 */
export async function redeliver(
  db: Kysely<DB>,
  by: Redeliverer,
  deliveryId: string,
  nowMs: number,
): Promise<CallbackDelivery> {
  const row = await db
    .updateTable('callback_deliveries')
    .set({
      status: 'pending',
      attempt_count: 0,
      next_attempt_at_ms: nowMs,
      lease_until_ms: null,
      claim_token: null,
      delivered_at_ms: null,
    })
    .where('id', '=', deliveryId)
    .where(redeliverableBy(by))
    .where('status', '!=', 'pending')
    .returning(LISTED)
    .executeTakeFirst();
  if (row) return toApiDelivery(row, (await attemptsByDelivery(db, [row.id])).get(row.id) ?? []);
  const existing = await db
    .selectFrom('callback_deliveries')
    .select('status')
    .where('id', '=', deliveryId)
    .where(redeliverableBy(by))
    .executeTakeFirst();
  if (!existing) {
    throw notFound(`No callback delivery '${deliveryId}'.`, 'delivery_not_found', 'delivery_id');
  }
  throw conflict(
    `Delivery ${deliveryId} is still pending; its next attempt is scheduled.`,
    'delivery_pending',
    'delivery_id',
  );
}
