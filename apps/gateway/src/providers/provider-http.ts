/**
 * The HTTP plumbing the image and embedding adapters share: one keep-alive undici Agent per
 * provider, JSON or multipart bodies, the answer read whole (neither is on the hot path of streamed
 * text, so a plain `agent.request()` serves), and failures mapped to UpstreamError values as the
 * text adapters map them (network errors by providers/text/http.ts's classifier).
 */
import { parseRetryAfterMs } from '@modelgate/core/retry';
import type { Agent } from 'undici';
import { describeErrorBody } from './error-body.js';
import { classifyNetworkError, createAgent } from './text/http.js';
import { type ProviderTimeouts, UpstreamError } from './text/types.js';

type UndiciResponse = Awaited<ReturnType<Agent['request']>>;

/** Largest answer read: `n` = 10 full-size images, base64-encoded, with room to spare. */
const MAX_ANSWER_BYTES = 512 * 1024 * 1024;
/** Longest error body kept. */
const MAX_ERROR_BYTES = 64 * 1024;

/**
 * A provider's base URL and fixed headers, split once, over its own connection pool.
 *
 * @example
 * const http = new ProviderHttp('openai', 'https://api.openai.com/v1', { authorization: `Bearer ${key}` }, IMAGE_TIMEOUTS);
 * const json = await http.send('POST', '/images/generations', { json: { model: 'dall-e-3', prompt: 'a cat' } }, signal);
 */
export class ProviderHttp {
  readonly agent: Agent;
  private readonly origin: string;
  private readonly basePath: string;

  constructor(
    readonly name: string,
    baseUrl: string,
    private readonly headers: Record<string, string>,
    timeouts: ProviderTimeouts,
  ) {
    const url = new URL(baseUrl);
    this.origin = url.origin;
    this.basePath = url.pathname.replace(/\/+$/, '');
    this.agent = createAgent(timeouts);
  }

  /**
   * Sends one request and resolves with the parsed JSON of a 2xx; rejects with an UpstreamError.
   *
   * @example
   * const json = await http.send('POST', '/images/generations', { json: { model, prompt } }, signal);
   */
  async send(
    method: 'GET' | 'POST',
    path: string,
    body: { json?: unknown; form?: FormData },
    signal: AbortSignal,
  ): Promise<unknown> {
    const { bytes, contentType } = await encode(body);
    const headers: Record<string, string> = { ...this.headers, accept: 'application/json' };
    if (contentType) headers['content-type'] = contentType;
    const response = await this.open(method, path, headers, bytes, signal);
    return this.readJson(response, MAX_ANSWER_BYTES);
  }

  /**
   * A GET of an absolute URL the provider handed out (a task to poll), with the provider's
   * headers: call it only for a URL of the provider's own (the caller checks the host).
   */
  async getJson(url: string, signal: AbortSignal): Promise<unknown> {
    const headers = { ...this.headers, accept: 'application/json' };
    const response = await this.getAbsolute(url, headers, signal);
    return this.readJson(response, MAX_ERROR_BYTES * 16);
  }

  /**
   * Sends one request and resolves with the open 2xx response (a stream the caller reads);
   * rejects with an UpstreamError for any other status.
   */
  async openStream(
    path: string,
    body: { form: FormData },
    signal: AbortSignal,
  ): Promise<AsyncIterable<Uint8Array>> {
    const { bytes, contentType } = await encode(body);
    const headers: Record<string, string> = { ...this.headers, accept: 'text/event-stream' };
    if (contentType) headers['content-type'] = contentType;
    const response = await this.open('POST', path, headers, bytes, signal);
    if (response.statusCode >= 200 && response.statusCode < 300) return response.body;
    const text = await readText(response.body, MAX_ERROR_BYTES, this.name);
    throw statusError(this.name, response.statusCode, response.headers, text);
  }

  /** A GET of a whole file at an absolute URL the provider handed out (its result images). */
  async download(url: string, signal: AbortSignal): Promise<Buffer> {
    const response = await this.getAbsolute(url, {}, signal);
    if (response.statusCode !== 200) {
      await response.body.dump();
      throw new UpstreamError(
        'status',
        `${this.name}'s image URL answered ${response.statusCode}.`,
        502,
      );
    }
    const chunks: Buffer[] = [];
    let size = 0;
    try {
      for await (const chunk of response.body) {
        size += chunk.length;
        if (size > MAX_ANSWER_BYTES) throw new Error('image too large');
        chunks.push(chunk);
      }
    } catch (error) {
      throw classifyNetworkError(error, this.name);
    }
    return Buffer.concat(chunks);
  }

  close(): Promise<void> {
    return this.agent.close();
  }

  /** The parsed JSON of a 2xx answer of at most `max` bytes; an UpstreamError otherwise. */
  private async readJson(response: UndiciResponse, max: number): Promise<unknown> {
    const text = await readText(response.body, max, this.name);
    if (response.statusCode < 200 || response.statusCode >= 300) {
      throw statusError(this.name, response.statusCode, response.headers, text);
    }
    try {
      return JSON.parse(text);
    } catch {
      throw new UpstreamError('status', `${this.name} sent an answer that is not JSON.`, 502);
    }
  }

  /** A GET of an absolute URL on the provider's pool; a network failure as an UpstreamError. */
  private async getAbsolute(
    url: string,
    headers: Record<string, string>,
    signal: AbortSignal,
  ): Promise<UndiciResponse> {
    const target = new URL(url);
    try {
      return await this.agent.request({
        origin: target.origin,
        path: `${target.pathname}${target.search}`,
        method: 'GET',
        headers,
        signal,
      });
    } catch (error) {
      throw classifyNetworkError(error, this.name);
    }
  }

  private async open(
    method: string,
    path: string,
    headers: Record<string, string>,
    body: Buffer | undefined,
    signal: AbortSignal,
  ) {
    try {
      return await this.agent.request({
        origin: this.origin,
        path: `${this.basePath}${path}`,
        method: method as 'GET' | 'POST',
        headers,
        body,
        signal,
      });
    } catch (error) {
      throw classifyNetworkError(error, this.name);
    }
  }
}

/** A JSON or multipart body as bytes, with its content type (undici's FormData encoder). */
async function encode(body: {
  json?: unknown;
  form?: FormData;
}): Promise<{ bytes?: Buffer; contentType?: string }> {
  if (body.json !== undefined) {
    return { bytes: Buffer.from(JSON.stringify(body.json)), contentType: 'application/json' };
  }
  if (body.form) {
    const request = new Request('http://upstream.invalid/', { method: 'POST', body: body.form });
    return {
      bytes: Buffer.from(await request.arrayBuffer()),
      contentType: request.headers.get('content-type') ?? undefined,
    };
  }
  return {};
}

async function readText(
  body: AsyncIterable<Buffer> & { dump(): Promise<void> },
  max: number,
  provider: string,
): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body) {
      size += chunk.length;
      if (size > max) {
        await body.dump().catch(() => {});
        throw new UpstreamError('status', `${provider} sent an answer over ${max} bytes.`, 502);
      }
      chunks.push(chunk);
    }
  } catch (error) {
    if (error instanceof UpstreamError) throw error;
    throw classifyNetworkError(error, provider);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function statusError(
  provider: string,
  status: number,
  headers: Record<string, string | string[] | undefined>,
  text: string,
): UpstreamError {
  let parsed: unknown = null;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON: the status alone decides
  }
  const described = describeErrorBody(parsed);
  const retryAfterMs = parseRetryAfterMs(headers);
  return new UpstreamError(
    'status',
    described.message || `${provider} answered ${status}.`,
    status,
    retryAfterMs === undefined ? null : Math.ceil(retryAfterMs / 1000),
    parsed === null ? null : (described.code ?? null),
  );
}

/** A broken answer is the upstream's fault: a 502, and another deployment may do better. */
export function badAnswer(provider: string, what: string): UpstreamError {
  return new UpstreamError('status', `${provider} answered ${what}.`, 502);
}
