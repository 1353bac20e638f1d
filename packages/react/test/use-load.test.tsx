// useLoad with loaders the test settles by hand: the answer shown is always the current question's.
import { ModelgateError } from '@modelgate/core';
import { act, renderHook, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { type Loader, useLoad } from '../src/index.js';

/** A loader whose calls the test answers, keeping each call's abort signal. */
function manual<T>() {
  const calls: { resolve(value: T): void; reject(error: unknown): void; signal: AbortSignal }[] =
    [];
  const load: Loader<T> = (signal) =>
    new Promise<T>((resolve, reject) => calls.push({ resolve, reject, signal }));
  return { load, calls };
}

describe('useLoad', () => {
  it('shows the answer, and drops a late answer to a question no longer asked', async () => {
    const first = manual<string>();
    const second = manual<string>();
    const { result, rerender } = renderHook(({ load }) => useLoad(load), {
      initialProps: { load: first.load },
    });
    expect(result.current).toMatchObject({ data: undefined, error: undefined, loading: true });

    rerender({ load: second.load });
    expect(first.calls.at(-1)!.signal.aborted).toBe(true);
    await act(async () => first.calls.at(-1)!.resolve('old'));
    expect(result.current.data).toBeUndefined();
    await act(async () => second.calls.at(-1)!.resolve('new'));
    expect(result.current).toMatchObject({ data: 'new', error: undefined, loading: false });
  });

  it('keeps the answer up while the same question is asked again (version), and shows errors', async () => {
    const { load, calls } = manual<number>();
    const { result, rerender } = renderHook(({ version }) => useLoad(load, version), {
      initialProps: { version: 0 },
    });
    await act(async () => calls.at(-1)!.resolve(1));
    rerender({ version: 1 });
    await waitFor(() =>
      expect(result.current).toMatchObject({ data: 1, error: undefined, loading: true }),
    );
    await act(async () => calls.at(-1)!.reject(new ModelgateError('nope', { status: 503 })));
    expect(result.current.loading).toBe(false);
    expect(result.current.data).toBeUndefined();
    expect(result.current.error).toBeInstanceOf(ModelgateError);
    expect(result.current.error?.status).toBe(503);
  });
});
