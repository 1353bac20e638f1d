// The client's options, as given, as resolved, and per call. Their own module so the transport
// (attempt.ts, request.ts, resources.ts) can use them without importing the client that uses it.

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
