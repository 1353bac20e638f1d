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
  /**
   * The whole body, once it has ended (rejects as iteration would). For answers read at once:
   * no generator and no promise per chunk. Use either this or iteration, not both.
   */
  collect(): Promise<Buffer>;
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
  let collecting = false;
  const notify = () => {
    const w = wake;
    wake = null;
    w?.();
  };
  readable.on('data', (chunk: Uint8Array) => {
    queue.push(chunk);
    if (!collecting && queue.length >= HIGH_WATER_CHUNKS) readable.pause();
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

  const whole = () => Buffer.concat(queue.splice(0));
  return {
    destroy: (error?: Error) => readable.destroy(error),
    collect() {
      if (ended) return Promise.resolve(whole());
      if (failure !== null) return Promise.reject(failure);
      // Nothing to pause for: the whole body is wanted, so let the socket flow.
      collecting = true;
      readable.resume();
      return new Promise<Buffer>((resolve, reject) => {
        const settle = () => {
          if (ended) resolve(whole());
          else if (failure !== null) reject(failure);
          else wake = settle;
        };
        wake = settle;
      });
    },
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
