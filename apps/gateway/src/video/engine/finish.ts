/** The one way a task reaches a final status: its charge or refund and its callback, in one transaction. */
import type { Kysely, Transaction } from 'kysely';
import type { Billing } from '../../billing/billing.js';
import type { DB } from '../../db/schema.js';
import {
  toVideoTask,
  type VideoTaskObject,
  type VideoTaskRow,
  type VideoTaskStatus,
} from '../tables.js';

/** The callbacks' outbox write, made inside the transaction that writes a final status. */
export type EnqueueCallback = (
  trx: Transaction<DB>,
  args: { taskId: string; keyId: number; callbackUrl: string; task: VideoTaskObject },
) => Promise<unknown>;

export interface StoredVideo {
  sha256: string;
  size: number;
  duration: number;
  width: number;
  height: number;
}

export type FinalOutcome =
  | { status: 'completed'; video: StoredVideo }
  | { status: 'failed'; code: string; message: string }
  | { status: 'cancelled'; code?: string; message?: string };

export interface TransitionDeps {
  db: Kysely<DB>;
  billing: Billing;
  cdnUrl: string;
  enqueueCallback?: EnqueueCallback;
  /** Quota units per second of video for a model at a resolution. */
  unitsPerSecond(model: string, resolution: string): number;
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

/**
 * The one way a task reaches a final status: in ONE transaction, a compare-and-swap from the
 * statuses in `from`, the settlement (completed: seconds produced × price, capped at the
 * reservation) or refund (failed, cancelled), and the callback outbox row. Returns the updated
 * row, or null when another actor (poller, cancel, timeout sweep) got there first.
 *
 * @example
 * await finishTask(deps, task.id, ['in_progress'], { status: 'failed', code: 'timeout', message: '…' });
 */
export async function finishTask(
  deps: TransitionDeps,
  taskId: string,
  from: VideoTaskStatus[],
  outcome: FinalOutcome,
): Promise<VideoTaskRow | null> {
  return deps.db.transaction().execute(async (trx) => {
    const now = nowSeconds();
    const common = {
      status: outcome.status,
      updated_at: now,
      completed_at: now,
      claimed_by: null,
      lease_until_ms: null,
    };
    const values =
      outcome.status === 'completed'
        ? {
            ...common,
            progress: 100,
            video_sha256: outcome.video.sha256,
            video_size: outcome.video.size,
            video_duration: outcome.video.duration,
            video_width: outcome.video.width,
            video_height: outcome.video.height,
          }
        : {
            ...common,
            error_code: outcome.code ?? 'cancelled',
            error_message: outcome.message ?? 'The task was cancelled.',
          };
    const row = (await trx
      .updateTable('video_tasks')
      .set(values)
      .where('id', '=', taskId)
      .where('status', 'in', from)
      .returningAll()
      .executeTakeFirst()) as VideoTaskRow | undefined;
    if (!row) return null;

    const reserved = Number(row.reserved_units);
    const keyId = Number(row.key_id);
    const meta = { kind: 'video', model: row.model, ref: row.id };
    // The task was created in the same instant its budgets reserved (submit.ts).
    const reservedAt = Number(row.created_at);
    let charged = 0;
    if (outcome.status === 'completed') {
      const params = row.params as { resolution?: string; duration?: number };
      const perSecond = deps.unitsPerSecond(row.model, params.resolution ?? '');
      const seconds = outcome.video.duration > 0 ? outcome.video.duration : (params.duration ?? 0);
      charged = Math.min(reserved, Math.ceil(perSecond * seconds));
      const result = await deps.billing
        .inTransaction(trx)
        .settle(keyId, reserved, charged, { ...meta, seconds }, reservedAt);
      charged = result.charged;
    } else {
      await deps.billing
        .inTransaction(trx)
        .refund(keyId, reserved, { ...meta, seconds: 0 }, reservedAt);
    }
    await trx
      .updateTable('video_tasks')
      .set({ charged_units: charged })
      .where('id', '=', taskId)
      .execute();
    row.charged_units = charged;
    if (row.callback_url && deps.enqueueCallback) {
      await deps.enqueueCallback(trx, {
        taskId: row.id,
        keyId,
        callbackUrl: row.callback_url,
        task: toVideoTask(row, deps.cdnUrl),
      });
    }
    return row;
  });
}
