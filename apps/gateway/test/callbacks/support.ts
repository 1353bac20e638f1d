/** Shared pieces of the callback tests: a key row, a final VideoTask, quick settings. */
import { randomBytes } from 'node:crypto';
import type { VideoTask } from '@modelgate/core';
import type { Kysely } from 'kysely';
import type { DeliverySettings } from '../../src/callbacks/deliverer.js';
import type { DB } from '../../src/db/schema.js';

/** A user key straight into the table (no HTTP); returns its id. */
export async function insertKey(db: Kysely<DB>, name = 'cb-test'): Promise<number> {
  const row = await db
    .insertInto('api_keys')
    .values({
      key_hash: randomBytes(32).toString('hex'),
      key_prefix: 'sk-test',
      name,
      role: 'user',
      quota: 1_000_000,
      models: JSON.stringify(null),
      rpm: null,
      tpm: null,
      expires_at: null,
      revoked_at: null,
      created_at: Math.floor(Date.now() / 1000),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export function finishedTask(
  taskId: string,
  status: 'completed' | 'failed' | 'cancelled',
): VideoTask {
  const now = Math.floor(Date.now() / 1000);
  return {
    task_id: taskId,
    object: 'video.task',
    model: 'kling-v3',
    status,
    progress: status === 'completed' ? 100 : 0,
    created_at: now - 10,
    updated_at: now,
    completed_at: now,
    video:
      status === 'completed'
        ? {
            url: `http://cdn.test/videos/${taskId}.mp4`,
            duration: 5,
            width: 1280,
            height: 720,
            mime_type: 'video/mp4',
          }
        : null,
    error: status === 'failed' ? { code: 'upstream_error', message: 'the provider failed' } : null,
  };
}

/** Millisecond-scale settings so retries happen within a test. */
export function fastSettings(overrides: Partial<DeliverySettings> = {}): DeliverySettings {
  return {
    retryScheduleMs: [30, 30],
    jitter: 0,
    timeoutMs: 2_000,
    leaseMs: 5_000,
    pollIntervalMs: 20,
    concurrency: 4,
    maxResponseBytes: 4096,
    ...overrides,
  };
}
