// A session publishes every token; React needs one render per frame. This view of a session
// passes status and error changes through at once and holds streamed text until the next frame.
import type { ChatSession, ChatSessionState } from '@modelgate/stream';
import { createFrameBatcher } from './batch.js';

/** `subscribe` / `getSnapshot` for `useSyncExternalStore`, batched per animation frame. */
export interface BatchedView {
  subscribe(onChange: () => void): () => void;
  getSnapshot(): ChatSessionState;
}

/** Only text growing inside one streaming turn waits for a frame; every other change is shown now. */
function isStreamingGrowth(shown: ChatSessionState, next: ChatSessionState): boolean {
  return shown.status === 'streaming' && next.status === 'streaming' && shown.error === next.error;
}

export function createBatchedView(session: ChatSession): BatchedView {
  let shown = session.getSnapshot();
  return {
    getSnapshot: () => shown,
    subscribe(onChange) {
      const batcher = createFrameBatcher(() => {
        shown = session.getSnapshot();
        onChange();
      });
      const unsubscribe = session.subscribe(() => {
        const next = session.getSnapshot();
        if (isStreamingGrowth(shown, next)) {
          batcher.schedule();
          return;
        }
        batcher.cancel();
        shown = next;
        onChange();
      });
      // A change between the first render and this subscription is shown too.
      if (shown !== session.getSnapshot()) {
        shown = session.getSnapshot();
        onChange();
      }
      return () => {
        batcher.cancel();
        unsubscribe();
      };
    },
  };
}
