/**
 * The callbacks feature as the gateway wires it: secrets, the submit-time URL check bound to the
 * config, the delivery listing, and the deliverer registered as background work.
 */
import type { Kysely } from 'kysely';
import type { CoreServices } from '../core-services.js';
import type { DB } from '../db/schema.js';
import { assertCallbackUrlAllowed, type HostResolver } from './address-guard.js';
import { createDeliverer, type Deliverer } from './deliverer.js';
import { type ListDeliveriesQuery, listDeliveries } from './deliveries.js';
import { enqueueCallback } from './outbox.js';
import {
  type CallbackSecretView,
  DEFAULT_GRACE_PERIOD_SECONDS,
  getCallbackSecret,
  rotateCallbackSecret,
} from './secrets.js';
import { type DeliverySettings, deliverySettingsFrom } from './settings.js';

export interface CallbackService {
  settings: DeliverySettings;
  deliverer: Deliverer;
  /** For VIDEO's submit: ApiError 400 `param: callback_url` unless the URL may be called back. */
  assertCallbackUrlAllowed(url: string): Promise<void>;
  /** For VIDEO's final transition: the outbox insert in the caller's transaction. */
  enqueueCallback: typeof enqueueCallback;
  getSecret(keyId: number): Promise<CallbackSecretView>;
  rotateSecret(keyId: number, gracePeriodSeconds?: number): Promise<CallbackSecretView>;
  listDeliveries: (keyId: number, query: ListDeliveriesQuery) => ReturnType<typeof listDeliveries>;
}

export interface CallbackServiceOptions {
  /** Overrides of the settings read from config (tests). */
  settings?: Partial<DeliverySettings>;
  /** Injected DNS for the guard and the deliverer (tests). */
  resolve?: HostResolver;
}

/**
 * @example
 * services.callbacks = createCallbackService(services);
 * // VIDEO: createVideoService({ …, assertCallbackUrlAllowed: services.callbacks.assertCallbackUrlAllowed,
 * //                                 enqueueCallback: services.callbacks.enqueueCallback })
 */
export function createCallbackService(
  services: Pick<CoreServices, 'config' | 'db' | 'log' | 'metrics' | 'lifecycle'>,
  options: CallbackServiceOptions = {},
): CallbackService {
  const db: Kysely<DB> = services.db;
  const settings = { ...deliverySettingsFrom(services.config), ...options.settings };
  const guardOptions = {
    allowPrivate: settings.allowPrivate,
    ...(options.resolve ? { resolve: options.resolve } : {}),
  };
  const deliverer = createDeliverer({
    db,
    log: services.log,
    metrics: services.metrics,
    settings,
    ...(options.resolve ? { resolve: options.resolve } : {}),
  });
  services.lifecycle.add({
    name: 'callbacks',
    start: () => deliverer.start(),
    stop: () => deliverer.stop(),
  });
  return {
    settings,
    deliverer,
    assertCallbackUrlAllowed: (url) => assertCallbackUrlAllowed(url, guardOptions),
    enqueueCallback,
    getSecret: (keyId) => getCallbackSecret(db, keyId),
    rotateSecret: (keyId, grace = DEFAULT_GRACE_PERIOD_SECONDS) =>
      rotateCallbackSecret(db, keyId, grace),
    listDeliveries: (keyId, query) => listDeliveries(db, keyId, query),
  };
}
