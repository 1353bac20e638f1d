/**
 * Reads an upstream body eagerly (flowing mode) into a small queue. undici's body stream drops
 * data it has buffered when the socket then fails; reading as data arrives keeps every chunk the
 * upstream sent before it broke, so a stream cut short still delivers — and bills — what was
 * produced. Backpressure: the socket is paused while the queue is long.
 */
import type { Readable } from 'node:stream';

const HIGH_WATER_CHUNKS = 64;
const LOW_WATER_CHUNKS = 16;

/** An async-iterable body that can be destroyed (aborting the upstream read). */
export interface UpstreamBody extends AsyncIterable<Uint8Array> {
  destroy(error?: Error): void;
}

/**
 * @example
 * const body = eagerBody(response.body);
 * for await (const chunk of body) process.stdout.write(chunk);
 */
export function eagerBody(readable: Readable): UpstreamBody {
  const queue: Uint8Array[] = [];
  let failure: unknown = null;
  let ended = false;
  let wake: (() => void) | null = null;
  const notify = () => {
    const w = wake;
    wake = null;
    w?.();
  };
  readable.on('data', (chunk: Uint8Array) => {
    queue.push(chunk);
    if (queue.length >= HIGH_WATER_CHUNKS) readable.pause();
    notify();
  });
  readable.on('end', () => {
    ended = true;
    notify();
  });
  readable.on('error', (error) => {
    failure = error;
    notify();
  });
  readable.on('close', () => {
    if (!ended && failure === null) failure = new Error('upstream body closed early');
    notify();
  });

  return {
    destroy: (error?: Error) => readable.destroy(error),
    async *[Symbol.asyncIterator]() {
      for (;;) {
        const chunk = queue.shift();
        if (chunk) {
          if (readable.isPaused() && queue.length <= LOW_WATER_CHUNKS) readable.resume();
          yield chunk;
          continue;
        }
        if (ended) return;
        if (failure !== null) throw failure;
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
      }
    },
  };
}
