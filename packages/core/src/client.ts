// createClient: resolves the configuration once and runs every call through the generated SDK
// functions with our transport (timeouts, retries, errors) plugged in as their `fetch`.

import { ConnectionError, ModelgateError, TimeoutError } from './errors.js';
import {
  createConfig,
  createClient as createGeneratedClient,
  type Client as GeneratedClient,
} from './generated/client/index.js';
import { createResources, type Resources } from './resources.js';
import { type Sent, send } from './transport.js';
import { type ResponseSchemaName, validateResponse } from './validate.js';

/** Options of {@link createClient}. */
export interface ModelgateClientOptions {
  /** The gateway's address, e.g. `https://api.example.com` (paths already carry `/v1`). */
  baseUrl: string;
  /** Sent as `Authorization: Bearer <apiKey>`. */
  apiKey?: string | undefined;
  /** A fetch implementation; defaults to `globalThis.fetch` at call time. */
  fetch?: typeof fetch | undefined;
  /** Per attempt. For streams: until the response headers arrive. Default 600 000 (10 min). */
  timeoutMs?: number | undefined;
  /** Retries after the first attempt on connection errors, timeouts, 408, 429 and 5xx. Default 2. */
  maxRetries?: number | undefined;
  /** Extra headers sent with every request. */
  headers?: Record<string, string> | undefined;
  /** Check every JSON response against the generated zod schema (loads zod lazily). Default false. */
  validateResponses?: boolean | undefined;
}

/** The client's configuration after defaults, as `client.options` exposes it. */
export interface ResolvedClientOptions {
  readonly baseUrl: string;
  readonly apiKey: string | undefined;
  readonly fetch: typeof fetch;
  readonly timeoutMs: number;
  readonly maxRetries: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly validateResponses: boolean;
}

/** Options every method takes as its last argument; they override the client's for one call. */
export interface CallOptions {
  /** Aborting rejects the call with `signal.reason` (an `AbortError` by default); never retried. */
  signal?: AbortSignal | undefined;
  timeoutMs?: number | undefined;
  maxRetries?: number | undefined;
  headers?: Record<string, string> | undefined;
}

/** A request through the client's configuration, for what the typed methods do not cover (streams). */
export interface RawRequest extends CallOptions {
  method: 'GET' | 'POST' | 'DELETE';
  /** Path below `baseUrl`, e.g. `/v1/chat/completions`. */
  path: string;
  /** Serialized as JSON. */
  body?: unknown;
  query?: Record<string, string | number | boolean | undefined>;
}

/** What {@link createClient} returns: the API grouped like the OpenAI SDK, plus low-level access. */
export interface ModelgateClient extends Resources {
  /** The resolved configuration (read-only). */
  readonly options: ResolvedClientOptions;
  /**
   * Low-level: sends a request with the client's base URL, key, headers, retries and errors, and
   * resolves with the raw 2xx `Response` as soon as its headers arrive (the timeout stops there).
   * Used by `@modelgate/stream`; the body is the caller's to read.
   *
   * @example
   * ```ts
   * const res = await client.request({ method: 'POST', path: '/v1/chat/completions', body: { ...req, stream: true } });
   * for await (const bytes of res.body!) { … }
   * ```
   */
  request(init: RawRequest): Promise<Response>;
}

/** Runs one generated SDK call with the given fetch; returns its data and response. */
export type GeneratedCall<T> = (
  fetch: typeof globalThis.fetch,
) => Promise<{ data: T; response: Response }>;

/** Shared by the resource methods: sends, maps errors, optionally validates. */
export interface Invoker {
  readonly api: GeneratedClient;
  invoke<T>(call: GeneratedCall<T>, options?: CallOptions, schema?: ResponseSchemaName): Promise<T>;
}

/**
 * Creates a modelgate client.
 *
 * @example
 * ```ts
 * import { createClient } from '@modelgate/core';
 *
 * const client = createClient({ baseUrl: 'http://localhost:8080', apiKey: process.env.MODELGATE_API_KEY });
 * const completion = await client.chat.completions.create({
 *   model: 'gpt-4o-mini',
 *   messages: [{ role: 'user', content: 'Say hi' }],
 * });
 * console.log(completion.choices[0]?.message.content);
 * ```
 */
export function createClient(options: ModelgateClientOptions): ModelgateClient {
  const resolved = resolveOptions(options);
  const api = createGeneratedClient(
    createConfig({
      baseUrl: resolved.baseUrl,
      auth: resolved.apiKey,
      headers: resolved.headers,
      throwOnError: true,
    }),
  );

  const invoker: Invoker = {
    api,
    async invoke(call, callOptions = {}, schema) {
      const attempt = new CallAttempt(resolved, callOptions);
      try {
        const { data, response } = await call(attempt.fetch);
        if (resolved.validateResponses && schema) await validateResponse(schema, data, response);
        return data;
      } catch (error) {
        throw attempt.normalize(error);
      } finally {
        attempt.release();
      }
    },
  };

  return {
    options: resolved,
    ...createResources(invoker),
    async request(init) {
      const attempt = new CallAttempt(resolved, init);
      try {
        const { response } = await api.request({
          method: init.method,
          url: init.path,
          body: init.body,
          query: init.query,
          headers: {
            ...(init.body === undefined ? {} : { 'Content-Type': 'application/json' }),
            ...init.headers,
          },
          security: [{ scheme: 'bearer', type: 'http' }],
          parseAs: 'stream',
          fetch: attempt.fetch,
          throwOnError: true,
        });
        return response;
      } catch (error) {
        throw attempt.normalize(error);
      } finally {
        // Streams may run for minutes: the timeout covers the wait for the headers only.
        attempt.release();
      }
    },
  };
}

function resolveOptions(options: ModelgateClientOptions): ResolvedClientOptions {
  if (!options.baseUrl) throw new TypeError('createClient: baseUrl is required');
  const userFetch = options.fetch;
  return Object.freeze({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    apiKey: options.apiKey,
    // Called through a wrapper so browsers never see `fetch` invoked with a foreign `this`.
    fetch:
      userFetch ??
      ((input: RequestInfo | URL, init?: RequestInit) => globalThis.fetch(input, init)),
    timeoutMs: options.timeoutMs ?? 600_000,
    maxRetries: options.maxRetries ?? 2,
    headers: Object.freeze({ ...options.headers }),
    validateResponses: options.validateResponses ?? false,
  });
}

/** One call's transport state: the fetch handed to the generated code, and its error mapping. */
class CallAttempt {
  private sent: Sent | undefined;

  constructor(
    private readonly config: ResolvedClientOptions,
    private readonly options: CallOptions,
  ) {}

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
