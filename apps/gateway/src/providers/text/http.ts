/**
 * The HTTP plumbing shared by the text adapters: one keep-alive undici Agent per provider
 * (reused across requests), connect / first-byte / idle timeouts, and the mapping of undici
 * failures and non-2xx statuses to UpstreamError values.
 */
import { parseRetryAfterMs } from '@modelgate/core/retry';
import { Agent } from 'undici';
import { type ResponseStart, type UpstreamBody, UpstreamCall } from './body.js';
import {
  type ProviderTimeouts,
  UpstreamError,
  type UpstreamRequest,
  type UpstreamResponse,
} from './types.js';

/** Longest error body read from a failed upstream response. */
const MAX_ERROR_BODY = 64 * 1024;

/** Where a provider's operation is sent: split once, so no request parses a URL. */
export interface HttpTarget {
  /** `scheme://host[:port]`, the connection pool's key. */
  origin: string;
  /** The path (and query), from the base URL's own path on. */
  path: string;
  headers: Record<string, string>;
}

/**
 * Splits a provider base URL and an operation path into an HttpTarget.
 *
 * @example
 * httpTarget('https://api.openai.com/v1/', '/chat/completions', {});
 * // { origin: 'https://api.openai.com', path: '/v1/chat/completions', headers: {} }
 */
export function httpTarget(
  baseUrl: string,
  path: string,
  headers: Record<string, string>,
): HttpTarget {
  const url = new URL(baseUrl);
  const basePath = url.pathname.replace(/\/+$/, '');
  return { origin: url.origin, path: `${basePath}${path}${url.search}`, headers };
}

/** Creates the provider's reusable connection pool. */
export function createAgent(timeouts: ProviderTimeouts): Agent {
  return new Agent({
    connect: { timeout: timeouts.connectMs },
    headersTimeout: timeouts.firstByteMs,
    bodyTimeout: timeouts.idleMs,
    keepAliveTimeout: 30_000,
    // A streamed chat holds its connection for its whole duration: a low cap queues stream N+1
    // behind the first N (BENCHMARKS.md finding 3). Keep-alive sockets are reused, so this only
    // bounds bursts.
    connections: 4096,
  });
}

/** Maps a thrown undici/network error to an UpstreamError. */
export function classifyNetworkError(error: unknown, provider: string): UpstreamError {
  const err = error as {
    code?: string;
    name?: string;
    message?: string;
    cause?: { code?: string };
  };
  const code = err.code ?? err.cause?.code ?? '';
  if (code === 'UND_ERR_ABORTED' || code === 'UND_ERR_ABORT' || err.name === 'AbortError') {
    return new UpstreamError('aborted', `Request to ${provider} was aborted.`);
  }
  if (
    code === 'UND_ERR_CONNECT_TIMEOUT' ||
    code === 'UND_ERR_HEADERS_TIMEOUT' ||
    code === 'UND_ERR_BODY_TIMEOUT' ||
    code === 'ETIMEDOUT'
  ) {
    return new UpstreamError('timeout', `${provider} timed out (${code}).`);
  }
  return new UpstreamError(
    'connection',
    `Could not reach ${provider}: ${code || err.message || 'connection error'}.`,
  );
}

/** The start of an error body, as text: at most MAX_ERROR_BODY bytes are kept. */
async function readErrorBody(body: UpstreamBody): Promise<string> {
  const parts: Buffer[] = [];
  let size = 0;
  await new Promise<void>((resolve) => {
    body.read({
      chunk(data) {
        if (size <= MAX_ERROR_BODY) parts.push(Buffer.from(data));
        size += data.byteLength;
        if (size > MAX_ERROR_BODY) {
          body.destroy();
          resolve();
        }
        return true;
      },
      end: resolve,
      fail: () => resolve(),
    });
  });
  return Buffer.concat(parts).toString('utf8').slice(0, MAX_ERROR_BODY);
}

/** Pulls `message` and `type` out of an OpenAI or Anthropic error body (§1, §2 Errors). */
function describeErrorBody(text: string): { message: string | null; type: string | null } {
  try {
    const body = JSON.parse(text) as { error?: { message?: unknown; type?: unknown } };
    const message = typeof body.error?.message === 'string' ? body.error.message : null;
    const type = typeof body.error?.type === 'string' ? body.error.type : null;
    return { message, type };
  } catch {
    return { message: null, type: null };
  }
}

/**
 * POSTs a JSON body through the provider's agent. Resolves with the open 2xx response; rejects
 * with an UpstreamError for any other status (its body read and described) or network failure.
 * The text adapters and the image adapter (providers/image/openai.ts) both send through it.
 */
export async function postJson(
  agent: Agent,
  provider: string,
  target: HttpTarget,
  upstream: Pick<UpstreamRequest, 'body' | 'signal'>,
): Promise<UpstreamResponse> {
  // A dispatch handler rather than agent.request(): the body comes straight from the connection,
  // without a Readable stream in between (see body.ts).
  const call = new UpstreamCall(upstream.signal);
  let start: ResponseStart;
  try {
    agent.dispatch(
      {
        origin: target.origin,
        path: target.path,
        method: 'POST',
        headers: target.headers,
        body: JSON.stringify(upstream.body),
      },
      call,
    );
    start = await call.started;
  } catch (error) {
    throw classifyNetworkError(error, provider);
  }
  const { status, headers, body } = start;
  if (status >= 200 && status < 300) return { status, headers, body };
  let text = '';
  try {
    text = await readErrorBody(body);
  } catch {
    // The status alone decides; a broken error body changes nothing.
  }
  const described = describeErrorBody(text);
  const retryAfterMs = parseRetryAfterMs(headers);
  throw new UpstreamError(
    'status',
    described.message ?? `${provider} answered ${status}.`,
    status,
    // Whole seconds, as the gateway's own Retry-After header states them.
    retryAfterMs === undefined ? null : Math.ceil(retryAfterMs / 1000),
    described.type,
  );
}
