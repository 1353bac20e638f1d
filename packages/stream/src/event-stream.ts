// The shared machinery of every typed stream: open the request lazily through core's client, parse
// SSE, decode events into items, feed an accumulator, and map every failure to a ModelgateError.
import {
  type CallOptions,
  ConnectionError,
  type ModelgateClient,
  ModelgateError,
} from '@modelgate/core';
import { readSseEvents, type SseEvent } from './sse.js';

/** Per-stream options: core's per-call options. `timeoutMs` bounds the wait for the response headers. */
export type StreamOptions = CallOptions;

/** Returned by a decoder when the stream's terminal event arrived (`data: [DONE]`). */
export const STREAM_DONE: unique symbol = Symbol('modelgate.stream.done');

/** Opens the HTTP request; resolves with a 2xx response or rejects with a ModelgateError. */
export type OpenStream = (signal: AbortSignal) => Promise<Response>;

/**
 * Opens `POST path` with `stream: true` added to the body, through the client's configuration
 * (base URL, key, headers, retries before the first byte, `timeoutMs` until the headers arrive).
 */
export function postStream(
  client: ModelgateClient,
  path: string,
  body: object,
  options: StreamOptions,
): OpenStream {
  return (signal) =>
    client.request({
      ...options,
      method: 'POST',
      path,
      body: { ...body, stream: true },
      headers: { accept: 'text/event-stream', ...options.headers },
      signal,
    });
}

/**
 * An async iterable of typed events with an abort handle. Iterate it once; the accumulator methods
 * of the subclasses read it to the end themselves when nobody iterates.
 */
export abstract class ModelgateStream<T> implements AsyncIterable<T> {
  /** Aborts when {@link abort} is called or the caller's `signal` aborts. */
  readonly signal: AbortSignal;
  private readonly controller = new AbortController();
  private started = false;
  private settled = false;
  private readonly completion: Promise<void>;
  private resolveCompletion!: () => void;
  private rejectCompletion!: (error: unknown) => void;

  protected constructor(
    private readonly open: OpenStream,
    userSignal: AbortSignal | undefined,
  ) {
    this.signal = userSignal
      ? AbortSignal.any([userSignal, this.controller.signal])
      : this.controller.signal;
    this.completion = new Promise<void>((resolve, reject) => {
      this.resolveCompletion = resolve;
      this.rejectCompletion = reject;
    });
    // Nobody may ever ask for the accumulated result: that must not be an unhandled rejection.
    this.completion.catch(() => {});
  }

  /** Turns one SSE event into an item, {@link STREAM_DONE}, or `undefined` (skip, e.g. `ping`). Throws on error events. */
  protected abstract decode(event: SseEvent): T | typeof STREAM_DONE | undefined;
  /** Folds an item into the subclass's accumulated result. */
  protected abstract accumulate(item: T): void;
  /** Whether the events seen so far form a whole stream (used when the body ends without `[DONE]`). */
  protected abstract isComplete(): boolean;

  /**
   * Stops the stream: the request (or the body being read) is aborted and the connection closed.
   * The iteration and the accumulators reject with `reason` (an `AbortError` by default).
   */
  abort(reason?: unknown): void {
    this.controller.abort(reason);
  }

  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    if (this.started) throw new TypeError('A modelgate stream can be iterated only once');
    this.started = true;
    try {
      const response = await this.open(this.signal);
      if (!response.body) {
        throw new ModelgateError('The streaming response has no body', {
          status: response.status,
          code: 'stream_incomplete',
        });
      }
      let sawDone = false;
      for await (const event of readSseEvents(response.body)) {
        const item = this.decode(event);
        if (item === STREAM_DONE) {
          sawDone = true;
          break;
        }
        if (item === undefined) continue;
        this.accumulate(item);
        yield item;
      }
      if (!sawDone && !this.isComplete()) {
        throw new ConnectionError('The stream ended before its last event', {
          status: response.status,
          code: 'stream_incomplete',
          requestId: response.headers.get('x-request-id') ?? undefined,
          headers: response.headers,
        });
      }
      this.settle();
    } catch (error) {
      const failure = this.normalize(error);
      this.settle(failure);
      throw failure;
    } finally {
      // The consumer stopped early (break/return): the stream is closed, not complete.
      this.settle(
        new ModelgateError('The stream was closed before its end', { code: 'stream_closed' }),
      );
    }
  }

  /** Reads the stream to its end if nobody is iterating it; otherwise waits for the iteration. */
  protected async drain(): Promise<void> {
    if (!this.started) {
      for await (const _ of this) {
        // The accumulator sees every item.
      }
      return;
    }
    await this.completion;
  }

  private settle(error?: unknown): void {
    if (this.settled) return;
    this.settled = true;
    if (error === undefined) this.resolveCompletion();
    else this.rejectCompletion(error);
  }

  private normalize(error: unknown): unknown {
    if (this.signal.aborted) return this.signal.reason;
    if (error instanceof ModelgateError) return error;
    return new ConnectionError('The stream failed while being read', { cause: error });
  }
}

/** Parses an event's JSON data; malformed data is a ModelgateError, not a SyntaxError. */
export function parseEventData(event: SseEvent): unknown {
  try {
    return JSON.parse(event.data);
  } catch (cause) {
    throw new ModelgateError('A stream event is not valid JSON', {
      code: 'invalid_stream_event',
      body: event.data,
      cause,
    });
  }
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
