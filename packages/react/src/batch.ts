// Streams can deliver hundreds of tokens a second; React only needs to render once per frame.

/** Coalesces many `schedule()` calls into one `flush()` per animation frame. */
export interface Batcher {
  /** Asks for a flush on the next frame (no-op when one is already pending). */
  schedule(): void;
  /** Runs a pending flush right now. */
  flushNow(): void;
  /** Drops a pending flush. */
  cancel(): void;
}

// Hidden tabs pause requestAnimationFrame: the timer keeps a backgrounded stream moving.
const HIDDEN_TAB_FALLBACK_MS = 100;
// Without requestAnimationFrame (tests, React Native, SSR) about one frame at 60 Hz.
const NO_RAF_INTERVAL_MS = 16;

export function createFrameBatcher(flush: () => void): Batcher {
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
      if (typeof requestAnimationFrame === 'function') {
        frame = requestAnimationFrame(run);
        timer = setTimeout(run, HIDDEN_TAB_FALLBACK_MS);
      } else {
        timer = setTimeout(run, NO_RAF_INTERVAL_MS);
      }
    },
    flushNow: run,
    cancel() {
      pending = false;
      clear();
    },
  };
}
