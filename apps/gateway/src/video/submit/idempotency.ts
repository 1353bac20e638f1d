/** Idempotency-Key: a repeated submission returns the first task; another body under the key is a 409. */
import { createHash } from 'node:crypto';
import type { VideoTaskCreated } from '@modelgate/core';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { badRequest, conflict } from '../../errors/api-error.js';

/** Thrown inside the insert's transaction when a concurrent submit took the Idempotency-Key. */
export class IdempotentReplay extends Error {}

/** Canonical JSON (sorted keys) so the same body always hashes the same. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** The hash that tells a replay of a submission from another body under the same key. */
export function requestHash(body: unknown): string {
  return createHash('sha256').update(canonical(body)).digest('hex');
}

/** Refuses an Idempotency-Key header of the wrong length (400). */
export function assertIdempotencyKeyValid(idempotencyKey: string | null | undefined): void {
  if (idempotencyKey === undefined || idempotencyKey === null) return;
  if (idempotencyKey.length < 1 || idempotencyKey.length > 255) {
    throw badRequest(
      'Idempotency-Key must be 1 to 255 characters.',
      'Idempotency-Key',
      'invalid_value',
    );
  }
}

/**
 * The task an earlier submission with this Idempotency-Key created, or null; 409 when that
 * submission had another body.
 */
export async function findIdempotentTask(
  db: Kysely<DB>,
  keyId: number,
  idempotencyKey: string,
  hash: string,
): Promise<VideoTaskCreated | null> {
  const row = await db
    .selectFrom('video_tasks')
    .select(['id', 'created_at', 'request_hash'])
    .where('key_id', '=', keyId)
    .where('idempotency_key', '=', idempotencyKey)
    .executeTakeFirst();
  if (!row) return null;
  if (row.request_hash !== hash) {
    throw conflict(
      'This Idempotency-Key was already used with a different request body.',
      'idempotency_key_reused',
    );
  }
  return { task_id: row.id, status: 'pending', created_at: Number(row.created_at) };
}
