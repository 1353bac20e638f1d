/**
 * The one interface every text provider adapter implements. An adapter speaks its upstream's
 * wire protocol (paths, auth headers) and nothing else: translation happens before and after it.
 */

import type { UpstreamBody } from './body.js';

/**
 * Upstream operations: chat completions and legacy completions (OpenAI), responses (OpenAI's own
 * Responses API), messages and their token count (Anthropic).
 */
export type TextOperation = 'chat' | 'completions' | 'messages' | 'count_tokens' | 'responses';

export type ProviderKind = 'openai' | 'anthropic';

/** Per-provider timeouts, all in milliseconds. */
export interface ProviderTimeouts {
  /** TCP/TLS connect. */
  connectMs: number;
  /** From sending the request to the response headers. */
  firstByteMs: number;
  /** Longest silence between two body chunks (streams included). */
  idleMs: number;
}

export const DEFAULT_TIMEOUTS: ProviderTimeouts = {
  connectMs: 5_000,
  firstByteMs: 60_000,
  idleMs: 60_000,
};

export interface UpstreamRequest {
  operation: TextOperation;
  /** The upstream-format JSON body (already translated). */
  body: unknown;
  /**
   * The client's vendor beta flags (`anthropic-beta`), for an upstream of the client's own format;
   * adapters whose vendor has none ignore them.
   */
  betas?: readonly string[];
  /** Aborts the upstream request (client disconnect, gateway shutdown). */
  signal?: AbortSignal;
}

/** A 2xx upstream response whose body has not been read yet. */
export interface UpstreamResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: UpstreamBody;
}

/**
 * A text provider adapter.
 *
 * @example
 * const res = await provider.send({ operation: 'chat', body: { model: 'gpt-4o-mini', messages } });
 * for await (const chunk of res.body) process.stdout.write(chunk);
 */
export interface TextProvider {
  readonly name: string;
  readonly kind: ProviderKind;
  /** Which operations this upstream serves natively. */
  supports(operation: TextOperation): boolean;
  /** Sends the request; resolves on a 2xx status, rejects with an UpstreamError otherwise. */
  send(request: UpstreamRequest): Promise<UpstreamResponse>;
  close(): Promise<void>;
}

/** How an upstream attempt failed; decides failover and the final status. */
export type UpstreamFailureKind = 'status' | 'connection' | 'timeout' | 'aborted';

/**
 * An upstream failure as a value the router can branch on.
 * `retryable` is true for the failures the gateway fails over on (docs/design.md#text-generation): 429, 5xx, connection errors
 * and timeouts.
 */
export class UpstreamError extends Error {
  constructor(
    readonly kind: UpstreamFailureKind,
    message: string,
    readonly status: number | null = null,
    readonly retryAfterSeconds: number | null = null,
    /** The upstream's error `type` when its body said (e.g. invalid_request_error). */
    readonly upstreamType: string | null = null,
  ) {
    super(message);
    this.name = 'UpstreamError';
  }

  get retryable(): boolean {
    if (this.kind === 'aborted') return false;
    if (this.kind !== 'status') return true;
    return this.status === 429 || (this.status !== null && this.status >= 500);
  }
}
