// useLoad: one request whose answer a component shows (a balance, a page of a list, a report):
// sent again when what it asks changes, aborted when that happens mid-flight, so a late answer to
// an old question never lands.
import { asModelgateError, type ModelgateError } from '@modelgate/core';
import { useEffect, useState } from 'react';

/** Sends the request; aborting `signal` abandons it. */
export type Loader<T> = (signal: AbortSignal) => Promise<T>;

export interface LoadState<T> {
  data: T | undefined;
  error: ModelgateError | undefined;
  loading: boolean;
}

/** A state and the loader it answers, so an answer to another loader is never shown. */
interface Answer<T> extends LoadState<T> {
  loader: Loader<T> | undefined;
}

const LOADING: LoadState<never> = { data: undefined, error: undefined, loading: true };

/**
 * Runs `load` whenever it changes (a new question: the old answer is dropped at once) or `version`
 * does (the same question asked again: the old answer stays up until the new one arrives).
 *
 * @example
 * ```tsx
 * const load = useCallback((signal: AbortSignal) => client.usage.retrieve({}, { signal }), [client]);
 * const { data: report, error, loading } = useLoad(load, spent);
 * ```
 */
export function useLoad<T>(load: Loader<T>, version = 0): LoadState<T> {
  const [answer, setAnswer] = useState<Answer<T>>({ ...LOADING, loader: undefined });
  // biome-ignore lint/correctness/useExhaustiveDependencies: `version` is only a signal to read again
  useEffect(() => {
    const controller = new AbortController();
    const settle = (state: LoadState<T>) => {
      if (!controller.signal.aborted) setAnswer({ ...state, loader: load });
    };
    setAnswer((a) => (a.loader === load ? { ...a, loading: true } : { ...LOADING, loader: load }));
    load(controller.signal).then(
      (data) => settle({ data, error: undefined, loading: false }),
      (caught: unknown) =>
        settle({ data: undefined, error: asModelgateError(caught), loading: false }),
    );
    return () => controller.abort();
  }, [load, version]);
  return answer.loader === load ? answer : LOADING;
}
