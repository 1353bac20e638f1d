/**
 * Upstream faults for the chaos run: every tick, the next fault of a fixed rotation is armed in the
 * provider simulator for a few requests (429s, 500s, hangs past the gateway's first-byte timeout,
 * streams cut or ended by an error event, lost video submits, failed tasks, 5xx while polling).
 */
import type { FaultController } from '../../provider-sim/src/index.js';

type FaultInput = Parameters<FaultController['add']>[0];

const ROTATION: { name: string; fault: FaultInput }[] = [
  {
    name: 'upstream 429',
    fault: { kind: 'status', status: 429, retryAfter: 1, count: 4, match: { path: '/openai' } },
  },
  {
    name: 'upstream 500',
    fault: { kind: 'status', status: 500, count: 4, match: { path: '/anthropic' } },
  },
  { name: 'upstream hang', fault: { kind: 'hang', count: 2, match: { path: '/openai' } } },
  {
    name: 'stream cut',
    fault: { kind: 'drop-mid-stream', afterChunks: 3, count: 3, match: { path: '/openai' } },
  },
  {
    name: 'stream error event',
    fault: { kind: 'stream-error', afterChunks: 2, count: 3, match: { path: '/anthropic' } },
  },
  {
    name: 'video submit response lost',
    fault: {
      kind: 'lose-response',
      count: 1,
      match: { path: '/kling/v1/videos/', model: 'kling-v3' },
    },
  },
  {
    name: 'video task failed upstream',
    fault: { kind: 'task-fail', count: 1, match: { path: '/minimax/v1/video_generation' } },
  },
  {
    name: 'video poll 500',
    fault: { kind: 'status', status: 500, count: 3, match: { path: '/xai/v1/videos/' } },
  },
];

export interface FaultInjector {
  /** Faults armed so far, by name. */
  injected: Record<string, number>;
  stop(): void;
}

export function injectFaults(faults: FaultController, everyMs: number): FaultInjector {
  const injected: Record<string, number> = {};
  let next = 0;
  const timer = setInterval(() => {
    const { name, fault } = ROTATION[next++ % ROTATION.length]!;
    faults.add(fault);
    injected[name] = (injected[name] ?? 0) + 1;
  }, everyMs);
  return {
    injected,
    stop() {
      clearInterval(timer);
      faults.clear();
    },
  };
}
