// The one abortable sleep of modelgate: client retries, pollers and the gateway's own waits.

/**
 * Resolves after `ms`, or rejects with `signal.reason` as soon as the signal aborts (at once if it
 * already has). The timer holds the process open while it runs, like any pending work.
 *
 * @example
 * ```ts
 * import { sleep } from '@modelgate/core/retry';
 *
 * await sleep(250); // waits 250 ms
 * await sleep(60_000, AbortSignal.timeout(10)); // rejects after 10 ms with a TimeoutError
 * ```
 */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
