import type { EngineObserver } from './types.js';

/**
 * One observer that reports to every observer in the list, including those added later.
 * The engine reports "claimed" after the claim commits and "released" before the release is
 * written, so a reported holding interval always lies inside the real one.
 */
export function fanOutObservers(observers: readonly EngineObserver[]): Required<EngineObserver> {
  return {
    claimed: (id, by) => {
      for (const o of observers) o.claimed?.(id, by);
    },
    released: (id, by) => {
      for (const o of observers) o.released?.(id, by);
    },
    finished: (id, status, by) => {
      for (const o of observers) o.finished?.(id, status, by);
    },
    upstreamError: (provider, reason) => {
      for (const o of observers) o.upstreamError?.(provider, reason);
    },
  };
}
