/** A task cancelled by its owner: finished as the engine finishes it, then cancelled upstream. */
import { conflict } from '../../errors/api-error.js';
import type { VideoAdapter } from '../providers/types.js';
import { toVideoTask, type VideoTaskObject } from '../tables.js';
import { loadOwnedTask } from '../task-queries.js';
import { finishTask, type TransitionDeps } from './finish.js';
import type { EngineLogger, EngineObserver } from './step.js';

export interface CancelDeps extends TransitionDeps {
  adapterFor(provider: string): VideoAdapter | undefined;
  log?: EngineLogger;
  observer?: EngineObserver;
}

/**
 * pending/in_progress → cancelled (refunded, upstream cancelled where possible); a task that is
 * already final → 409.
 */
export async function cancelOwnedTask(
  deps: CancelDeps,
  keyId: number,
  taskId: string,
): Promise<VideoTaskObject> {
  const row = await loadOwnedTask(deps.db, keyId, taskId);
  const done = await finishTask(deps, row.id, ['pending', 'in_progress'], {
    status: 'cancelled',
    code: 'cancelled',
    message: 'The task was cancelled by the client.',
  });
  if (!done) {
    const now = await loadOwnedTask(deps.db, keyId, taskId);
    throw conflict(`The task is already ${now.status}.`, 'task_already_final');
  }
  deps.observer?.finished?.(row.id, 'cancelled', 'api');
  const adapter = deps.adapterFor(done.provider);
  if (done.upstream_id && adapter?.cancel) {
    // Best effort, after the commit: the task is cancelled and refunded whatever upstream says.
    adapter
      .cancel(done.upstream_id)
      .catch((error: Error) =>
        deps.log?.warn('upstream cancel failed', { task_id: row.id, err: error.message }),
      );
  }
  return toVideoTask(done, deps.cdnUrl);
}
