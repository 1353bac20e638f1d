import type { VideoTaskRow } from '../task-object.js';
import { keepClaimAlive } from './claims.js';
import { pollTask } from './poll.js';
import type { StepContext } from './step.js';
import { submitTask } from './submit.js';

/**
 * Takes one claimed task a step further (submit when pending, poll when in progress), holding a
 * concurrency slot of its provider and keeping the claim alive meanwhile. A step that throws
 * releases the claim for a later retry.
 */
export async function processTask(step: StepContext, row: VideoTaskRow): Promise<void> {
  const adapter = step.deps.adapterFor(row.provider);
  const stopHeartbeat = keepClaimAlive(step.claimant, row.id);
  await step.limits.acquireSlot(row.provider);
  try {
    if (!adapter) {
      await step.finish(row, ['pending', 'in_progress'], {
        status: 'failed',
        code: 'provider_not_configured',
        message: `No provider is configured for ${row.model}.`,
      });
      return;
    }
    if (row.status === 'pending') {
      // Not even a resumed submit is worth sending once the deadline has passed.
      if (Date.now() >= Number(row.deadline_at_ms) && row.upstream_id === null) {
        await step.finish(row, ['pending'], {
          status: 'failed',
          code: 'timeout',
          message: `${row.model}: the task could not be submitted before its deadline; refunded.`,
        });
        return;
      }
      await submitTask(step, row, adapter);
    } else {
      await pollTask(step, row, adapter);
    }
  } catch (error) {
    step.deps.log?.error('video task step failed', {
      task_id: row.id,
      err: (error as Error).message,
    });
    // Leave the claim to lapse if even the release fails (database down).
    await step.release(row.id, step.pollIntervalMs * 2).catch(() => {});
  } finally {
    stopHeartbeat();
    step.limits.releaseSlot(row.provider);
  }
}
