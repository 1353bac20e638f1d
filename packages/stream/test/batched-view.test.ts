// The batched view: streamed text waits for the batcher, anything else is shown at once.
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  type ChatSessionState,
  createBatchedView,
  createIntervalBatcher,
  initialChatState,
} from '../src/index.js';

/** A state source the test drives by hand, as a session would while a turn streams. */
function manualSource() {
  let state = initialChatState();
  const listeners = new Set<() => void>();
  return {
    getSnapshot: () => state,
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    set(change: Partial<ChatSessionState>) {
      state = { ...state, ...change };
      for (const listener of listeners) listener();
    },
  };
}

const streamed = (text: string): Partial<ChatSessionState> => ({
  status: 'streaming',
  messages: [{ id: 'a', role: 'assistant', content: text }],
});

afterEach(() => vi.useRealTimers());

describe('createIntervalBatcher', () => {
  it('flushes many schedules once per interval, on demand, and never after cancel', () => {
    vi.useFakeTimers();
    let flushes = 0;
    const batcher = createIntervalBatcher(() => flushes++, 40);
    batcher.schedule();
    batcher.schedule();
    expect(flushes).toBe(0);
    vi.advanceTimersByTime(40);
    expect(flushes).toBe(1);
    batcher.schedule();
    batcher.flushNow();
    batcher.flushNow();
    expect(flushes).toBe(2);
    batcher.schedule();
    batcher.cancel();
    vi.advanceTimersByTime(100);
    expect(flushes).toBe(2);
  });
});

describe('createBatchedView', () => {
  it('holds streamed text until the flush and shows a status change at once', () => {
    vi.useFakeTimers();
    const source = manualSource();
    const view = createBatchedView(source, (flush) => createIntervalBatcher(flush, 40));
    const seen: ChatSessionState[] = [];
    view.subscribe(() => seen.push(view.getSnapshot()));

    source.set(streamed('a'));
    expect(seen.map((s) => s.status)).toEqual(['streaming']);
    source.set(streamed('ab'));
    source.set(streamed('abc'));
    expect(seen).toHaveLength(1);
    vi.advanceTimersByTime(40);
    expect(seen.at(-1)?.messages[0]?.content).toBe('abc');

    source.set(streamed('abcd'));
    source.set({ status: 'ready' });
    expect(seen.at(-1)?.status).toBe('ready');
    expect(seen.at(-1)?.messages[0]?.content).toBe('abcd');
    const shown = seen.length;
    vi.advanceTimersByTime(100);
    expect(seen).toHaveLength(shown);
  });
});
