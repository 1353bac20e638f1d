// createClient: resolves the configuration once. `client.request` (streams) goes straight to the
// transport; the typed methods load the generated SDK on their first call (lazy-resources.ts).
import { lazyResources } from './lazy-resources.js';
import { sendRequest } from './request.js';
import type { Resources } from './resources.js';

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
  return {
    options: resolved,
    ...lazyResources(resolved),
    request: (init) => sendRequest(resolved, init),
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
