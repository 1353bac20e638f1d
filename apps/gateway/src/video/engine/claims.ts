/** Task claims in the database: which instance works on a task, until when. */
import { type Kysely, sql } from 'kysely';
import type { DB } from '../../db/schema.js';
import type { VideoTaskRow } from '../task-object.js';

/** This instance as the holder of task claims. */
export interface Claimant {
  db: Kysely<DB>;
  /** Written to `claimed_by`. */
  instanceId: string;
  /** How long a claim holds before another instance may take the task (ms). */
  leaseMs: number;
}

/** Which due tasks one claim round may take. */
export interface ClaimRound {
  now: number;
  limit: number;
  /** Providers to leave alone (backing off, or at their concurrency cap). */
  skipProviders: string[];
  /** Tasks this instance is still working on. */
  skipTaskIds: string[];
}

/**
 * Claims due tasks: `UPDATE … WHERE id IN (SELECT … FOR UPDATE SKIP LOCKED) RETURNING *` sets
 * `claimed_by` and `lease_until_ms`, so two instances never take the same row and a crashed
 * instance's claims lapse when the lease ends.
 */
export async function claimDueTasks(
  claimant: Claimant,
  round: ClaimRound,
): Promise<VideoTaskRow[]> {
  const { db, instanceId, leaseMs } = claimant;
  const { now, limit, skipProviders, skipTaskIds } = round;
  const result = await sql<VideoTaskRow>`
      update video_tasks
         set claimed_by = ${instanceId}, lease_until_ms = ${now + leaseMs}, poll_count = poll_count + 1
       where id in (
         select id from video_tasks
          where status in ('pending', 'in_progress')
            and next_poll_at_ms <= ${now}
            and (lease_until_ms is null or lease_until_ms < ${now})
            ${skipProviders.length > 0 ? sql`and provider not in (${sql.join(skipProviders)})` : sql``}
            ${skipTaskIds.length > 0 ? sql`and id not in (${sql.join(skipTaskIds)})` : sql``}
          order by next_poll_at_ms
          limit ${limit}
          for update skip locked)
      returning *`.execute(db);
  return result.rows;
}

/** Gives up our claim on the task and sets when it is next due (with any other columns). */
export async function releaseClaim(
  claimant: Claimant,
  taskId: string,
  delayMs: number,
  extra: Record<string, unknown> = {},
): Promise<void> {
  await claimant.db
    .updateTable('video_tasks')
    .set({
      claimed_by: null,
      lease_until_ms: null,
      next_poll_at_ms: Date.now() + delayMs,
      ...extra,
    })
    .where('id', '=', taskId)
    .where('claimed_by', '=', claimant.instanceId)
    .execute();
}

/**
 * Keeps the claim alive while a step runs longer than the lease (a big download); returns the
 * function that stops it.
 */
export function keepClaimAlive(claimant: Claimant, taskId: string): () => void {
  const { db, instanceId, leaseMs } = claimant;
  const timer = setInterval(
    () => {
      void db
        .updateTable('video_tasks')
        .set({ lease_until_ms: Date.now() + leaseMs })
        .where('id', '=', taskId)
        .where('claimed_by', '=', instanceId)
        .execute()
        .catch(() => {});
    },
    Math.max(50, Math.floor(leaseMs / 3)),
  );
  timer.unref?.();
  return () => clearInterval(timer);
}
