/** Tables of migration 003_callbacks: per-key signing secrets, the delivery outbox and its attempts. */
import type { BudgetThresholdEvent, CallbackEvent } from '@modelgate/core';
import type { Generated } from 'kysely';

declare module '../db/schema.js' {
  interface DB extends CallbackTables {}
}

export interface CallbackSecretsTable {
  key_id: number;
  /** `whsec_` + base64(32 bytes). Stored as is: GET /v1/callbacks/secret must return it. */
  secret: string;
  /** The secret before the last rotation; still signs until previous_expires_at. */
  previous_secret: string | null;
  /** Unix seconds. */
  previous_expires_at: number | null;
  /** Unix seconds: when `secret` was created. */
  created_at: number;
}

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

export interface CallbackDeliveriesTable {
  /** The webhook-id: `msg_` + random; the same on every attempt. */
  id: string;
  /** Insertion order, for newest-first listing and cursors. */
  seq: Generated<number>;
  /** The task's key; null for a budget alert, which no key owns (signed with the alert secret). */
  key_id: number | null;
  /** The task id, or `budget:<scope>:<id>:<period_start>:<threshold>` for a budget alert. */
  task_id: string;
  event_type: CallbackEvent['type'] | BudgetThresholdEvent['type'];
  url: string;
  /** The exact JSON body, frozen at enqueue (text, not jsonb: the signed bytes must never change). */
  payload: string;
  status: DeliveryStatus;
  attempt_count: Generated<number>;
  /** Milliseconds: when the next attempt is due; null once delivered or failed. */
  next_attempt_at_ms: number | null;
  /** Milliseconds: a claim is valid until then; an instance that died mid-attempt loses it. */
  lease_until_ms: number | null;
  /** Random token of the current claim, so a late finisher cannot overwrite a newer claim. */
  claim_token: string | null;
  created_at_ms: number;
  delivered_at_ms: number | null;
}

export interface CallbackAttemptsTable {
  id: Generated<number>;
  delivery_id: string;
  /** Milliseconds. */
  at_ms: number;
  status_code: number | null;
  latency_ms: number;
  error: string | null;
}

export interface CallbackTables {
  callback_secrets: CallbackSecretsTable;
  callback_deliveries: CallbackDeliveriesTable;
  callback_attempts: CallbackAttemptsTable;
}
