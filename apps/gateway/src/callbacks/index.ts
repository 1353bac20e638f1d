/**
 * The callbacks feature: signed deliveries of a task's final status to the URL its submission named.
 * Built before video, which is handed it: video checks a callback URL at submit (`guardUrl`) and
 * writes the delivery in the transaction that writes the final status (`enqueue`); the deliverer,
 * registered as background work, sends it. The routes read and rotate the key's signing secret,
 * list its deliveries and send a finished one again.
 */

import type { CallbackDelivery, CallbackDeliveryList, CallbackSecret } from '@modelgate/core';
import type { Kysely } from 'kysely';
import type { Actor } from '../audit/index.js';
import type { Config } from '../config/config.js';
import type { Lifecycle } from '../core-services.js';
import type { DB } from '../db/schema.js';
import type { Logger } from '../observability/logger.js';
import type { Metrics } from '../observability/metrics.js';
import {
  type AddressGuardOptions,
  assertCallbackUrlAllowed,
  type HostResolver,
} from './address-guard.js';
import { createDeliverer, type Deliverer } from './deliverer.js';
import { type ListDeliveriesQuery, listDeliveries, redeliver } from './deliveries.js';
import { type EnqueueCallbackInput, enqueueCallback } from './outbox.js';
import {
  createCallbackSecret,
  DEFAULT_GRACE_PERIOD_SECONDS,
  getCallbackSecret,
  rotateCallbackSecret,
} from './secrets.js';
import { deliverySettingsFrom } from './settings.js';

export {
  CallbackUrlError,
  type CheckedTarget,
  checkCallbackUrl,
  type HostResolver,
} from './address-guard.js';
export type { EnqueueCallbackInput } from './outbox.js';
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
  listDeliveries(keyId: number, query: ListDeliveriesQuery): Promise<CallbackDeliveryList>;
  /** Sends a delivered or failed delivery of the key's again (ApiError 404 / 409 otherwise). */
  redeliver(keyId: number, deliveryId: string): Promise<CallbackDelivery>;
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
    redeliver: (keyId, deliveryId) => redeliver(db, keyId, deliveryId, Date.now()),
    deliverer,
  };
}
