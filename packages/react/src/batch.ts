// Streams can deliver hundreds of tokens a second; React only needs to render once per frame.
import { createIntervalBatcher, type RenderBatcher } from '@modelgate/stream';

// Hidden tabs pause requestAnimationFrame: the timer keeps a backgrounded stream moving.
const HIDDEN_TAB_FALLBACK_MS = 100;
// Without requestAnimationFrame (tests, React Native, SSR) about one frame at 60 Hz.
const NO_RAF_INTERVAL_MS = 16;

/** Coalesces many `schedule()` calls into one `flush()` per animation frame. */
export function createFrameBatcher(flush: () => void): RenderBatcher {
  if (typeof requestAnimationFrame !== 'function') {
    return createIntervalBatcher(flush, NO_RAF_INTERVAL_MS);
  }
  let pending = false;
  let frame: number | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const clear = () => {
    if (frame !== undefined) cancelAnimationFrame(frame);
    if (timer !== undefined) clearTimeout(timer);
    frame = undefined;
    timer = undefined;
  };
  const run = () => {
    if (!pending) return;
    pending = false;
    clear();
    flush();
  };

  return {
    schedule() {
      if (pending) return;
      pending = true;
      frame = requestAnimationFrame(run);
      timer = setTimeout(run, HIDDEN_TAB_FALLBACK_MS);
    },
    flushNow: run,
    cancel() {
      pending = false;
      clear();
    },
  };
}
