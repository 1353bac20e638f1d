// createClient: resolves the configuration once. `client.request` (streams) goes straight to the
// transport; the typed methods load the generated SDK on their first call (lazy-resources.ts).
import { lazyResources } from './lazy-resources.js';
import type { ModelgateClientOptions, RawRequest, ResolvedClientOptions } from './options.js';
import { sendRequest } from './request.js';
import type { Resources } from './resources.js';

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
  const own = {
    options: resolved,
    request: (init: RawRequest) => sendRequest(resolved, init),
  };
  const typed = lazyResources(resolved);
  // `options` and `request` are the client's own; every other name is a typed method group.
  return new Proxy(own, {
    get: (target, name) => (name in target ? Reflect.get(target, name) : Reflect.get(typed, name)),
  }) as ModelgateClient;
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
