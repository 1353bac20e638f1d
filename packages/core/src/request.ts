// `client.request`: one raw request straight on the transport, without the generated client, so an
// app that only streams does not load the generated runtime. It sends what the generated client
// would: the same URL, query encoding, headers and JSON body.

import { ModelgateError } from './errors.js';
import type { RawRequest, ResolvedClientOptions } from './options.js';
import { send } from './transport.js';

/**
 * Sends `init` with the client's configuration and resolves with the 2xx response once its headers
 * arrive (the attempt's timeout stops there). Rejects with a ModelgateError, or the abort reason.
 */
export async function sendRequest(
  config: ResolvedClientOptions,
  init: RawRequest,
): Promise<Response> {
  try {
    const sent = await send(buildRequest(config, init), {
      fetch: config.fetch,
      timeoutMs: init.timeoutMs ?? config.timeoutMs,
      maxRetries: init.maxRetries ?? config.maxRetries,
      signal: init.signal,
    });
    // Streams may run for minutes: the timeout covers the wait for the headers only.
    sent.release();
    return sent.response;
  } catch (error) {
    if (init.signal?.aborted) throw init.signal.reason;
    if (error instanceof ModelgateError) throw error;
    // A body JSON cannot encode, a URL fetch refuses, …
    throw new ModelgateError(error instanceof Error ? error.message : String(error), {
      cause: error,
    });
  }
}

function buildRequest(config: ResolvedClientOptions, init: RawRequest): Request {
  // Merged as the generated client merges them: client headers, then the JSON content type, then
  // the call's headers; no content type without a body; the API key always wins.
  const headers = new Headers();
  const merge = (source: Record<string, string> | undefined) => {
    for (const [name, value] of Object.entries(source ?? {})) {
      if (value != null) headers.set(name, value);
    }
  };
  merge(config.headers);
  headers.set('Content-Type', 'application/json');
  merge(init.headers);
  if (init.body === undefined) headers.delete('Content-Type');
  if (config.apiKey) headers.set('Authorization', `Bearer ${config.apiKey}`);
  const path = init.path.startsWith('/') ? init.path : `/${init.path}`;
  return new Request(config.baseUrl + path + query(init.query), {
    method: init.method,
    headers,
    // BigInts become strings, as the generated client's JSON serializer writes them.
    body: init.body === undefined ? undefined : JSON.stringify(init.body, bigIntAsString),
  });
}

/** `?a=1&b=x` with values percent-encoded and undefined ones left out; '' when nothing is left. */
function query(params: RawRequest['query']): string {
  const pairs: string[] = [];
  for (const [name, value] of Object.entries(params ?? {})) {
    if (value != null) pairs.push(`${name}=${encodeURIComponent(value)}`);
  }
  return pairs.length ? `?${pairs.join('&')}` : '';
}

function bigIntAsString(_key: string, value: unknown): unknown {
  return typeof value === 'bigint' ? value.toString() : value;
}
