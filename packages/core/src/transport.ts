// Sends one Request with a timeout per attempt, the caller's AbortSignal, retries and error mapping.
// Everything above (generated SDK functions, streams) goes through `send`, so the policy lives here only.
import { ConnectionError, ModelgateError, TimeoutError } from './errors.js';
import { backoffMs, isRetryableStatus, retryDelayMs, sleep } from './retry.js';

export interface SendOptions {
  fetch: typeof fetch;
  /** Per attempt; `0` or `Infinity` disables the timeout. */
  timeoutMs: number;
  /** Retries after the first attempt. */
  maxRetries: number;
  signal?: AbortSignal | undefined;
}

/** A 2xx response whose attempt deadline is still running: call `release()` once done with it. */
export interface Sent {
  response: Response;
  /** Stops the attempt's timer. Reading the body after the deadline fired fails with its reason. */
  release(): void;
  /** True when this attempt's deadline fired (e.g. while the body was being read). */
  timedOut(): boolean;
}

/**
 * Sends `request` (cloned per attempt, so the original body can be replayed) and resolves with the
 * first 2xx response. Non-2xx answers reject with the matching {@link ModelgateError} subclass; a user
 * abort rejects with `signal.reason` and is never retried.
 */
export async function send(request: Request, options: SendOptions): Promise<Sent> {
  // Called as a plain function: `window.fetch` throws "Illegal invocation" when called as a method.
  const { signal, fetch: doFetch } = options;
  for (let attempt = 0; ; attempt++) {
    signal?.throwIfAborted();
    const deadline = new AttemptDeadline(options.timeoutMs, signal);
    let response: Response;
    try {
      response = await doFetch(request.clone(), { signal: deadline.signal });
    } catch (cause) {
      deadline.release();
      if (signal?.aborted) throw signal.reason;
      const failure = deadline.timedOut
        ? new TimeoutError(`Request timed out after ${options.timeoutMs} ms`, { cause })
        : new ConnectionError(`Connection failed: ${describe(cause)}`, { cause });
      if (attempt >= options.maxRetries) throw failure;
      await sleep(backoffMs(attempt), signal);
      continue;
    }

    if (response.ok) {
      return {
        response,
        release: () => deadline.release(),
        timedOut: () => deadline.timedOut,
      };
    }

    const delay =
      attempt < options.maxRetries && isRetryableStatus(response.status)
        ? retryDelayMs(attempt, response.headers)
        : undefined;
    if (delay === undefined) {
      // The deadline stays armed while the error body is read, so a stalled body cannot hang us.
      const error = await ModelgateError.from(response);
      deadline.release();
      if (signal?.aborted) throw signal.reason;
      throw error;
    }
    deadline.release();
    await discard(response);
    await sleep(delay, signal);
  }
}

/** Aborts the attempt after `timeoutMs`, or when the caller's signal aborts. */
class AttemptDeadline {
  readonly signal: AbortSignal;
  timedOut = false;
  private readonly controller = new AbortController();
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(timeoutMs: number, userSignal: AbortSignal | undefined) {
    this.signal = userSignal
      ? AbortSignal.any([userSignal, this.controller.signal])
      : this.controller.signal;
    if (timeoutMs > 0 && Number.isFinite(timeoutMs)) {
      this.timer = setTimeout(() => {
        this.timedOut = true;
        this.controller.abort(new TimeoutError(`Request timed out after ${timeoutMs} ms`));
      }, timeoutMs);
    }
  }

  release(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}

/** Frees the connection of a response we will not read. */
async function discard(response: Response): Promise<void> {
  try {
    await response.body?.cancel();
  } catch {
    // Already closed: nothing to free.
  }
}

function describe(cause: unknown): string {
  if (cause instanceof Error) {
    const inner = cause.cause instanceof Error ? ` (${cause.cause.message})` : '';
    return `${cause.message}${inner}`;
  }
  return String(cause);
}
