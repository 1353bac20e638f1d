// One call's transport state, shared by the typed methods and `client.request`: the fetch that runs
// `send` with the call's options, and the mapping of whatever the call threw to a ModelgateError.

import { ConnectionError, ModelgateError, TimeoutError } from './errors.js';
import type { CallOptions, ResolvedClientOptions } from './options.js';
import { type Sent, send } from './transport.js';

export class CallAttempt {
  private sent: Sent | undefined;

  constructor(
    private readonly config: ResolvedClientOptions,
    private readonly options: CallOptions,
  ) {}

  /** A fetch with the call's timeout, retries and signal; the generated SDK calls it too. */
  readonly fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = input instanceof Request && !init ? input : new Request(input, init);
    this.sent = await send(request, {
      fetch: this.config.fetch,
      timeoutMs: this.options.timeoutMs ?? this.config.timeoutMs,
      maxRetries: this.options.maxRetries ?? this.config.maxRetries,
      signal: this.options.signal,
    });
    return this.sent.response;
  };

  /** Stops the attempt's timer; call it once the body has been read (or handed over). */
  release(): void {
    this.sent?.release();
  }

  /** Turns anything thrown during the call into a ModelgateError, except a user abort. */
  normalize(error: unknown): unknown {
    if (this.options.signal?.aborted) return this.options.signal.reason;
    const response = this.sent?.response;
    // Checked first: the body read rejects with the deadline's own TimeoutError, which lacks the status.
    if (this.sent?.timedOut()) {
      return new TimeoutError('Timed out while reading the response body', {
        status: response?.status,
        cause: error,
      });
    }
    if (error instanceof ModelgateError) return error;
    if (error instanceof SyntaxError) {
      return new ModelgateError('The response body is not valid JSON', {
        status: response?.status,
        type: 'api_error',
        code: 'invalid_response_body',
        requestId: response?.headers.get('x-request-id') ?? undefined,
        headers: response?.headers,
        cause: error,
      });
    }
    if (response) {
      return new ConnectionError('The connection failed while reading the response body', {
        status: response.status,
        cause: error,
      });
    }
    return new ModelgateError(error instanceof Error ? error.message : String(error), {
      cause: error,
    });
  }
}
