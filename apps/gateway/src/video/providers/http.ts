/** What the video adapters share over `fetch`: URLs, JSON calls, errors as ProviderError, downloads. */
import { parseRetryAfterMs } from '@modelgate/core/retry';
import { describeErrorBody } from '../../providers/error-body.js';
import { ProviderError, type VideoProviderConfig } from './types.js';

/** Joins a base URL and a path without doubling or dropping slashes. */
export function joinUrl(base: string, path: string): string {
  return `${base.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
}

export interface JsonResponse {
  status: number;
  headers: Headers;
  body: unknown;
}

/**
 * One JSON call to a provider. Non-2xx answers become a ProviderError (429/503/connection
 * failures marked retryable: the provider did not take the request).
 */
export async function callJson(
  provider: string,
  config: VideoProviderConfig,
  method: string,
  url: string,
  options: { headers?: Record<string, string>; body?: unknown } = {},
): Promise<JsonResponse> {
  const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(url, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: AbortSignal.timeout(config.timeoutMs ?? 30_000),
      redirect: 'error',
    });
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code;
    // Refused before anything was sent: safe to retry. Anything else (timeout, reset) is ambiguous.
    const refused = cause === 'ECONNREFUSED' || cause === 'ENOTFOUND';
    throw new ProviderError(
      provider,
      0,
      refused ? 'connection_refused' : 'connection_error',
      `${provider}: ${(error as Error).message}`,
      refused,
    );
  }
  const text = await response.text();
  let body: unknown = null;
  if (text.length > 0) {
    try {
      body = JSON.parse(text);
    } catch {
      body = text;
    }
  }
  if (!response.ok) {
    const { code, message } = describeErrorBody(body);
    const status = response.status;
    throw new ProviderError(
      provider,
      status,
      code || `http_${status}`,
      `${provider} answered ${status}: ${message || (typeof body === 'string' ? body.slice(0, 200) : 'no message')}`,
      status === 429 || status === 503,
      parseRetryAfterMs(response.headers),
    );
  }
  return { status: response.status, headers: response.headers, body };
}

/** `Authorization: Bearer <api key>`, the header most providers take. */
export function bearerAuth(config: VideoProviderConfig): Record<string, string> {
  return { authorization: `Bearer ${config.apiKey ?? ''}` };
}

/** A provider's JSON API: {@link callJson} with the base URL, auth headers and name filled in. */
export interface ProviderApi {
  get(path: string): Promise<JsonResponse>;
  /** `headers` are added to the auth headers (e.g. DashScope's `X-DashScope-Async`). */
  post(path: string, body?: unknown, headers?: Record<string, string>): Promise<JsonResponse>;
  delete(path: string): Promise<JsonResponse>;
}

/**
 * Binds one provider's JSON API to its name, base URL and auth headers, so an adapter names only
 * its paths and bodies. `auth` may be a function for credentials that change (Kling's JWT).
 *
 * @example
 * const api = providerApi('luma', config, bearerAuth(config));
 * const res = await api.post('/generations/video', { prompt: 'a boat' });
 */
export function providerApi(
  provider: string,
  config: VideoProviderConfig,
  auth: Record<string, string> | (() => Record<string, string>),
): ProviderApi {
  const headersOf = typeof auth === 'function' ? auth : () => auth;
  const call = (method: string, path: string, body?: unknown, extra?: Record<string, string>) =>
    callJson(provider, config, method, joinUrl(config.baseUrl, path), {
      headers: extra ? { ...headersOf(), ...extra } : headersOf(),
      body,
    });
  return {
    get: (path) => call('GET', path),
    post: (path, body, headers) => call('POST', path, body, headers),
    delete: (path) => call('DELETE', path),
  };
}

/** Fetches a result URL; the response body is streamed by the caller. */
export async function fetchResult(
  provider: string,
  url: string,
  headers: Record<string, string> = {},
): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(url, {
      headers,
      redirect: 'follow',
      signal: AbortSignal.timeout(600_000),
    });
  } catch (error) {
    throw new ProviderError(
      provider,
      0,
      'download_failed',
      `${provider}: ${(error as Error).message}`,
      true,
    );
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new ProviderError(
      provider,
      response.status,
      'download_failed',
      `${provider}: result download answered ${response.status}`,
      response.status === 429 || response.status >= 500,
    );
  }
  return response;
}

/** `data:<mime>;base64,<…>` or the plain URL. */
export function imageAsUrlOrDataUri(image: {
  kind: 'url' | 'inline';
  url?: string;
  mimeType?: string;
  base64?: string;
}): string {
  return image.kind === 'url' ? image.url! : `data:${image.mimeType};base64,${image.base64}`;
}

/** Same-origin check, so credentials go only to the provider's own host. */
export function sameOrigin(a: string, b: string): boolean {
  try {
    return new URL(a).origin === new URL(b).origin;
  } catch {
    return false;
  }
}

/** A required string at a path of an unknown JSON body, or a ProviderError. */
export function requireString(provider: string, value: unknown, what: string): string {
  if (typeof value === 'string' && value.length > 0) return value;
  if (typeof value === 'number') return String(value);
  throw new ProviderError(
    provider,
    502,
    'bad_upstream_response',
    `${provider}: response has no ${what}`,
    false,
  );
}

export function asRecord(value: unknown): Record<string, unknown> {
  return value && typeof value === 'object' ? (value as Record<string, unknown>) : {};
}
