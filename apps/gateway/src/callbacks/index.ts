/**
 * The callbacks feature: signed deliveries of a task's final status to the URL its submission named.
 * Built before video, which is handed it: video checks a callback URL at submit (`guardUrl`) and
 * writes the delivery in the transaction that writes the final status (`enqueue`, the outbox below);
 * the deliverer, registered as background work, sends it. The routes read and rotate the key's
 * signing secret, list its deliveries and send a finished one again.
 */

import type {
  CallbackDelivery,
  CallbackDeliveryList,
  CallbackEvent,
  CallbackSecret,
  VideoTask,
} from '@modelgate/core';
import type { Kysely } from 'kysely';
import type { Actor } from '../audit/index.js';
import type { Config } from '../config/config.js';
import type { Lifecycle } from '../core-services.js';
import { randomBase62 } from '../db/ids.js';
import type { DB } from '../db/schema.js';
import type { Logger } from '../observability/logger.js';
import type { Metrics } from '../observability/metrics.js';
import {
  type AddressGuardOptions,
  assertCallbackUrlAllowed,
  type HostResolver,
} from './address-guard.js';
import { createDeliverer, type Deliverer, deliverySettingsFrom } from './deliverer.js';
import {
  type ListDeliveriesQuery,
  listDeliveries,
  type Redeliverer,
  redeliver,
} from './deliveries.js';
import {
  createCallbackSecret,
  DEFAULT_GRACE_PERIOD_SECONDS,
  getCallbackSecret,
  rotateCallbackSecret,
} from './secrets.js';

export {
  CallbackUrlError,
  type CheckedTarget,
  checkCallbackUrl,
  type HostResolver,
} from './address-guard.js';
export type { CallbackTables } from './tables.js';

export interface CallbacksService {
  /**
   * Refuses a callback URL no delivery may go to: ApiError 400 `param: callback_url` unless it is
   * http(s) and every address of its host is public (or private addresses are allowed).
   */
  guardUrl(url: string): Promise<void>;
  /** Writes the delivery of a task's final status in `trx`, the transaction that writes the status. */
  enqueue(trx: Kysely<DB>, event: EnqueueCallbackInput): Promise<{ id: string }>;
  /** Creates a new key's signing secret in `trx`, the transaction that creates the key. */
  createSecret(trx: Kysely<DB>, keyId: number): Promise<string>;
  getSecret(keyId: number): Promise<CallbackSecret>;
  /** A new secret; the old one keeps signing for `gracePeriodSeconds` (default 24 h). */
  rotateSecret(keyId: number, gracePeriodSeconds?: number, actor?: Actor): Promise<CallbackSecret>;
  /** A key's deliveries, or the budget alerts' (`keyId` null: no key owns them). */
  listDeliveries(keyId: number | null, query: ListDeliveriesQuery): Promise<CallbackDeliveryList>;
  /**
   * Sends a delivered or failed delivery of the key's (an administrator's: or a budget alert) again
   * (ApiError 404 / 409 otherwise).
   */
  redeliver(by: Redeliverer, deliveryId: string): Promise<CallbackDelivery>;
  /** Sends the due deliveries; started and stopped with the gateway. */
  deliverer: Deliverer;
}

export interface CallbacksFeatureDeps {
  config: Pick<Config, 'callbacks'> & { budgets?: Pick<Config['budgets'], 'alertSecret'> };
  db: Kysely<DB>;
  log: Logger;
  metrics: Metrics;
  lifecycle: Lifecycle;
}

/**
 * @example
 * const callbacks = createCallbacksFeature(core);
 * const video = createVideo(core, { files, callbacks });
 * // in video's final transaction:
 * await callbacks.enqueue(trx, { taskId, keyId, callbackUrl, task });
 */
export function createCallbacksFeature(
  deps: CallbacksFeatureDeps,
  options: { resolve?: HostResolver } = {},
): CallbacksService {
  const { db } = deps;
  // The one guard, at submit and at every delivery attempt, on the configuration's switch.
  const guard: AddressGuardOptions = {
    allowPrivate: deps.config.callbacks.allowPrivate,
    ...(options.resolve ? { resolve: options.resolve } : {}),
  };
  const deliverer = createDeliverer({
    db,
    log: deps.log,
    metrics: deps.metrics,
    settings: deliverySettingsFrom(deps.config),
    guard,
    alertSecret: deps.config.budgets?.alertSecret ?? null,
  });
  deps.lifecycle.add({
    name: 'callbacks',
    start: () => deliverer.start(),
    stop: () => deliverer.stop(),
  });
  return {
    guardUrl: (url) => assertCallbackUrlAllowed(url, guard),
    enqueue: enqueueCallback,
    createSecret: createCallbackSecret,
    getSecret: (keyId) => getCallbackSecret(db, keyId),
    rotateSecret: (keyId, grace = DEFAULT_GRACE_PERIOD_SECONDS, actor) =>
      rotateCallbackSecret(db, keyId, grace, actor),
    listDeliveries: (keyId, query) => listDeliveries(db, keyId, query),
    redeliver: (by, deliveryId) => redeliver(db, by, deliveryId, Date.now()),
    deliverer,
  };
}

// The callback outbox: a final task status and its delivery row are written in ONE transaction, so a
// callback is never lost (crash after commit: the row is there) nor sent for a status that was
// rolled back. The deliverer sends the rows.

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
