/**
 * The callback outbox: a final task status and its delivery row are written in ONE transaction, so a
 * callback is never lost (crash after commit: the row is there) nor sent for a status that was rolled
 * back. The deliverer (deliverer.ts) sends the rows.
 */
import type { CallbackEvent, VideoTask } from '@modelgate/core';
import type { Kysely } from 'kysely';
import { randomBase62 } from '../db/ids.js';
import type { DB } from '../db/schema.js';

/** The event types, one per final task status. */
export type CallbackEventType = CallbackEvent['type'];

const EVENT_BY_STATUS: Record<string, CallbackEventType> = {
  completed: 'video.task.completed',
  failed: 'video.task.failed',
  cancelled: 'video.task.cancelled',
};

export interface EnqueueCallbackInput {
  taskId: string;
  keyId: number;
  callbackUrl: string;
  /** The API `VideoTask` object in its final state (metadata included); its `status` picks the event type. */
  task: VideoTask & { metadata?: Record<string, unknown> };
}

/** Thrown for a programming error: a callback for a task that is not in a final status. */
export class NotFinalStatusError extends Error {
  override readonly name = 'NotFinalStatusError';
}

/** `msg_` + 24 base62 characters (~143 random bits): the webhook-id, the same on every retry. */
export function newDeliveryId(): string {
  return `msg_${randomBase62(24)}`;
}

/**
 * Writes the delivery row in the caller's transaction (pass the `trx` that writes the final status).
 * The body `{type, timestamp, data: task}` is serialized now and never changes, so every retry sends
 * and signs the same bytes. Returns the webhook-id.
 *
 * @example
 * await db.transaction().execute(async (trx) => {
 *   await markCompleted(trx, task);
 *   if (task.callbackUrl) await enqueueCallback(trx, { taskId, keyId, callbackUrl, task: apiTask });
 * });
 */
export async function enqueueCallback(
  trx: Kysely<DB>,
  input: EnqueueCallbackInput,
): Promise<{ id: string; eventType: CallbackEventType }> {
  const eventType = EVENT_BY_STATUS[input.task.status];
  if (!eventType) {
    throw new NotFinalStatusError(`no callback for task status "${input.task.status}"`);
  }
  const nowMs = Date.now();
  const id = newDeliveryId();
  const event: CallbackEvent = {
    type: eventType,
    // When the task became final, as the task itself says: a second read of the clock here can
    // fall on the next second.
    timestamp: input.task.completed_at ?? Math.floor(nowMs / 1000),
    data: input.task,
  };
  const payload = JSON.stringify(event);
  await trx
    .insertInto('callback_deliveries')
    .values({
      id,
      key_id: input.keyId,
      task_id: input.taskId,
      event_type: eventType,
      url: input.callbackUrl,
      payload,
      status: 'pending',
      next_attempt_at_ms: nowMs,
      created_at_ms: nowMs,
    })
    .execute();
  return { id, eventType };
}
