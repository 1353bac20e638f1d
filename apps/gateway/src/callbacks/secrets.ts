/**
 * Per-key callback signing secrets (`whsec_` + base64 of 32 random bytes). Stored in plain text:
 * GET /v1/callbacks/secret must return the secret itself, so a one-way hash cannot work, and
 * encryption with a key that sits next to the database would add ceremony, not safety. Rotation keeps
 * the previous secret signing (as a second signature) for a grace period so receivers can switch.
 */

import { generateCallbackSecret } from '@modelgate/callbacks';
import type { CallbackSecret } from '@modelgate/core';
import type { Kysely } from 'kysely';
import { type Actor, recordAudit } from '../audit/index.js';
import type { DB } from '../db/schema.js';

/** Default grace period of a rotated secret: 24 h. */
export const DEFAULT_GRACE_PERIOD_SECONDS = 24 * 60 * 60;

const nowSeconds = () => Math.floor(Date.now() / 1000);

/**
 * Creates the key's secret in the caller's transaction (token creation) and returns it. A key that
 * already has one keeps it.
 *
 * @example
 * const callbackSecret = await createCallbackSecret(trx, created.record.id);
 */
export async function createCallbackSecret(trx: Kysely<DB>, keyId: number): Promise<string> {
  const inserted = await trx
    .insertInto('callback_secrets')
    .values({ key_id: keyId, secret: generateCallbackSecret(), created_at: nowSeconds() })
    .onConflict((oc) => oc.column('key_id').doNothing())
    .returning('secret')
    .executeTakeFirst();
  if (inserted) return inserted.secret;
  const existing = await trx
    .selectFrom('callback_secrets')
    .select('secret')
    .where('key_id', '=', keyId)
    .executeTakeFirstOrThrow();
  return existing.secret;
}

/**
 * The key's secret; created on first use for keys made before callbacks existed (the bootstrap admin).
 *
 * @example
 * const view = await getCallbackSecret(db, key.id);
 */
export async function getCallbackSecret(db: Kysely<DB>, keyId: number): Promise<CallbackSecret> {
  return toView(await secretRow(db, keyId), nowSeconds());
}

/** The key's row, created first if the key has none yet (one extra write, once per key). */
async function secretRow(db: Kysely<DB>, keyId: number) {
  const read = () =>
    db.selectFrom('callback_secrets').selectAll().where('key_id', '=', keyId).executeTakeFirst();
  const existing = await read();
  if (existing) return existing;
  await createCallbackSecret(db, keyId);
  const created = await read();
  if (!created) throw new Error(`no callback secret for key ${keyId}`);
  return created;
}

/**
 * Replaces the key's secret. The old one keeps signing for `gracePeriodSeconds` (0: stops at once).
 * A second rotation within the grace period drops the oldest secret.
 *
 * @example
 * const view = await rotateCallbackSecret(db, key.id, 3600, { keyId: key.id, requestId });
 */
export async function rotateCallbackSecret(
  db: Kysely<DB>,
  keyId: number,
  gracePeriodSeconds: number = DEFAULT_GRACE_PERIOD_SECONDS,
  actor?: Actor,
): Promise<CallbackSecret> {
  const now = nowSeconds();
  return db.transaction().execute(async (trx) => {
    const current = await trx
      .selectFrom('callback_secrets')
      .select('secret')
      .where('key_id', '=', keyId)
      .forUpdate()
      .executeTakeFirst();
    const keepPrevious = current !== undefined && gracePeriodSeconds > 0;
    const next = {
      secret: generateCallbackSecret(),
      previous_secret: keepPrevious ? current.secret : null,
      previous_expires_at: keepPrevious ? now + gracePeriodSeconds : null,
      created_at: now,
    };
    const row = await trx
      .insertInto('callback_secrets')
      .values({ key_id: keyId, ...next })
      .onConflict((oc) => oc.column('key_id').doUpdateSet(next))
      .returningAll()
      .executeTakeFirstOrThrow();
    if (actor) {
      // The secrets themselves never go into the log: only that it rotated, and the grace period.
      await recordAudit(trx, actor, {
        action: 'callback_secret.rotate',
        target: { type: 'callback_secret', id: String(keyId) },
        before: null,
        after: { grace_period_seconds: gracePeriodSeconds },
      });
    }
    return toView(row, now);
  });
}

/**
 * The secrets a delivery is signed with now: the current one first, then the previous one while its
 * grace period lasts.
 */
export async function signingSecrets(db: Kysely<DB>, keyId: number): Promise<string[]> {
  const row = await secretRow(db, keyId);
  return previousStillValid(row, nowSeconds()) ? [row.secret, row.previous_secret!] : [row.secret];
}

type SecretRow = {
  secret: string;
  previous_secret: string | null;
  previous_expires_at: number | null;
  created_at: number;
};

function previousStillValid(row: SecretRow, now: number): boolean {
  return (
    row.previous_secret !== null &&
    row.previous_expires_at !== null &&
    row.previous_expires_at > now
  );
}

function toView(row: SecretRow, now: number): CallbackSecret {
  return {
    secret: row.secret,
    previous_secret_expires_at: previousStillValid(row, now) ? row.previous_expires_at : null,
    created_at: row.created_at,
  };
}
