// A session publishes every token; a screen needs far fewer redraws. This view of a session passes
// status and error changes through at once and holds streamed text until the next flush, whose
// timing the view's user picks (an animation frame in a browser, an interval in a terminal).
import type { ChatSessionState } from './state.js';

/** Coalesces many `schedule()` calls into one flush. */
export interface RenderBatcher {
  /** Asks for a flush (no-op when one is already pending). */
  schedule(): void;
  /** Runs a pending flush right now. */
  flushNow(): void;
  /** Drops a pending flush. */
  cancel(): void;
}

/** Makes the batcher of one subscription, given what its flush must do. */
export type RenderBatcherFactory = (flush: () => void) => RenderBatcher;

/** What a batched view reads: a {@link ChatSession} or anything with its two methods. */
export interface ChatStateSource {
  getSnapshot(): ChatSessionState;
  subscribe(listener: () => void): () => void;
}

/** `subscribe` / `getSnapshot` in the shape `useSyncExternalStore` (or any view) takes. */
export interface BatchedChatView {
  subscribe(onChange: () => void): () => void;
  getSnapshot(): ChatSessionState;
}

/**
 * A batcher that flushes at most once per `intervalMs`: the first `schedule()` starts the timer,
 * later ones join it.
 *
 * @example
 * ```ts
 * const view = createBatchedView(session, (flush) => createIntervalBatcher(flush, 40));
 * ```
 */
export function createIntervalBatcher(flush: () => void, intervalMs: number): RenderBatcher {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const cancel = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
  };
  const run = () => {
    if (timer === undefined) return;
    cancel();
    flush();
  };
  return {
    schedule() {
      timer ??= setTimeout(run, intervalMs);
    },
    flushNow: run,
    cancel,
  };
}

/** Only text growing inside one streaming turn waits for a flush; every other change is shown now. */
function isStreamingGrowth(shown: ChatSessionState, next: ChatSessionState): boolean {
  return shown.status === 'streaming' && next.status === 'streaming' && shown.error === next.error;
}

/**
 * A view of a session whose snapshot changes at once for status, errors and new turns, and at
 * most once per batcher flush while text streams in.
 *
 * @example
 * ```ts
 * import { ChatSession, createBatchedView, createIntervalBatcher } from '@modelgate/stream';
 *
 * const session = new ChatSession({ client, model: 'gpt-4o-mini' });
 * const view = createBatchedView(session, (flush) => createIntervalBatcher(flush, 40));
 * view.subscribe(() => redraw(view.getSnapshot())); // ~25 redraws a second while streaming
 * await session.send('Tell me a story');
 * ```
 */
export function createBatchedView(
  source: ChatStateSource,
  createBatcher: RenderBatcherFactory,
): BatchedChatView {
  let shown = source.getSnapshot();
  return {
    getSnapshot: () => shown,
    subscribe(onChange) {
      const batcher = createBatcher(() => {
        shown = source.getSnapshot();
        onChange();
      });
      const unsubscribe = source.subscribe(() => {
        const next = source.getSnapshot();
        if (isStreamingGrowth(shown, next)) {
          batcher.schedule();
          return;
        }
        batcher.cancel();
        shown = next;
        onChange();
      });
      // A change between the first render and this subscription is shown too.
      if (shown !== source.getSnapshot()) {
        shown = source.getSnapshot();
        onChange();
      }
      return () => {
        batcher.cancel();
        unsubscribe();
      };
    },
  };
}
