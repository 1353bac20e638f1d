/**
 * One upstream HTTP exchange as an undici dispatch handler: the response body is taken straight
 * from the connection's `onResponseData`, with no Readable stream, no promise and no queue entry
 * per chunk. Under 1,000 held streams that per-chunk machinery, alive across the wait for the next
 * chunk, was promoted to the old generation faster than it was collected (PERFORMANCE.md round 5).
 *
 * Chunks are kept from the moment they arrive, so a stream cut short still delivers — and bills —
 * everything the upstream sent before it broke. Two ways out, one per kind of answer: `collect()`
 * for a whole JSON answer, `read()` for a stream.
 */
import type { Dispatcher } from 'undici';

/** Chunks held before a reader takes over; beyond this the connection waits. */
const HIGH_WATER_CHUNKS = 64;

/** Where `read()` delivers a body. Exactly one of `end` or `fail` is called, once. */
export interface BodyReader {
  /** One chunk. Return false when the consumer is full: the upstream waits until `resume()`. */
  chunk(data: Uint8Array): boolean;
  end(): void;
  fail(error: unknown): void;
}

/** An upstream body read as it arrives; destroying it aborts the upstream request. */
export interface UpstreamBody {
  destroy(error?: Error): void;
  /**
   * The whole body, once it has ended (rejects if the upstream broke first). For answers read at
   * once. Use either this or `read()`, not both.
   */
  collect(): Promise<Buffer>;
  /**
   * Resolves once the first chunk is here or the body has ended; rejects if it failed before
   * either. A stream commits to its upstream on this (failover is allowed until a byte is sent).
   */
  ready(): Promise<void>;
  /** Delivers what has arrived so far, then every later chunk as it comes, then the end. */
  read(reader: BodyReader): void;
  /** Lets a body paused by `chunk()` returning false flow again. */
  resume(): void;
}

/** The status line and headers of an upstream response, with its body still to come. */
export interface ResponseStart {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: UpstreamBody;
}

const abortError = () => new DOMException('The upstream request was aborted.', 'AbortError');

/**
 * The handler for one `agent.dispatch()`. `started` resolves with the response head, or rejects
 * with the undici error when the exchange fails before one (connect error, first-byte timeout,
 * abort). The signal aborts the exchange at any point.
 *
 * @example
 * const call = new UpstreamCall(signal);
 * agent.dispatch({ origin, path, method: 'POST', headers, body }, call);
 * const { status, body } = await call.started;
 * console.log(status, (await body.collect()).toString());
 */
export class UpstreamCall implements Dispatcher.DispatchHandler, UpstreamBody {
  readonly started: Promise<ResponseStart>;
  private resolveStart!: (start: ResponseStart) => void;
  private rejectStart!: (error: unknown) => void;
  private controller: Dispatcher.DispatchController | null = null;
  private abortReason: Error | null = null;
  private head = false;
  // Chunks that arrived before a reader (or collect) took over.
  private queue: Buffer[] = [];
  private ended = false;
  private failure: unknown = null;
  private reader: BodyReader | null = null;
  private settled = false;
  // Called when something arrives while nobody reads: resolves ready() or collect().
  private waiting: (() => void) | null = null;
  private readonly onAbort: () => void;

  constructor(private readonly signal?: AbortSignal) {
    this.started = new Promise<ResponseStart>((resolve, reject) => {
      this.resolveStart = resolve;
      this.rejectStart = reject;
    });
    this.onAbort = () => this.destroy(signal?.reason instanceof Error ? signal.reason : undefined);
    if (signal?.aborted) this.onAbort();
    else signal?.addEventListener('abort', this.onAbort, { once: true });
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    if (this.abortReason) controller.abort(this.abortReason);
  }

  onResponseStart(
    _controller: Dispatcher.DispatchController,
    statusCode: number,
    headers: Record<string, string | string[] | undefined>,
  ): void {
    // 1xx informational heads are not the response.
    if (statusCode < 200) return;
    this.head = true;
    this.resolveStart({ status: statusCode, headers, body: this });
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.reader !== null) {
      if (!this.reader.chunk(chunk)) controller.pause();
      return;
    }
    this.queue.push(chunk);
    // Nobody reads yet (the stream is still deciding on failover): keep what comes, up to a bound.
    if (this.waiting === null && this.queue.length >= HIGH_WATER_CHUNKS) controller.pause();
    this.wake();
  }

  onResponseEnd(): void {
    this.ended = true;
    this.done();
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
    if (!this.head) {
      this.signal?.removeEventListener('abort', this.onAbort);
      this.rejectStart(error);
      return;
    }
    if (this.failure === null) this.failure = error;
    this.done();
  }

  destroy(error?: Error): void {
    const reason = error ?? abortError();
    if (this.controller) this.controller.abort(reason);
    else this.abortReason ??= reason;
  }

  resume(): void {
    if (this.reader !== null && !this.settled) this.controller?.resume();
  }

  collect(): Promise<Buffer> {
    return new Promise<Buffer>((resolve, reject) => {
      const check = () => {
        if (this.ended) resolve(Buffer.concat(this.queue.splice(0)));
        else if (this.failure !== null) reject(this.failure);
        else this.waiting = check;
      };
      check();
      // The whole body is wanted: let the connection flow into the queue.
      this.controller?.resume();
    });
  }

  ready(): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const check = () => {
        if (this.queue.length > 0 || this.ended) resolve();
        else if (this.failure !== null) reject(this.failure);
        else this.waiting = check;
      };
      check();
    });
  }

  read(reader: BodyReader): void {
    this.reader = reader;
    const held = this.queue;
    this.queue = [];
    let flowing = true;
    for (const chunk of held) flowing = reader.chunk(chunk) && flowing;
    if (this.ended || this.failure !== null) this.settle();
    else if (flowing) this.controller?.resume();
    else this.controller?.pause();
  }

  private done(): void {
    this.signal?.removeEventListener('abort', this.onAbort);
    this.settle();
    this.wake();
  }

  private settle(): void {
    if (this.settled || this.reader === null) return;
    if (this.ended) {
      this.settled = true;
      this.reader.end();
    } else if (this.failure !== null) {
      this.settled = true;
      this.reader.fail(this.failure);
    }
  }

  private wake(): void {
    const waiting = this.waiting;
    this.waiting = null;
    waiting?.();
  }
}
