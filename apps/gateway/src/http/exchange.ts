/**
 * One request as the pipeline's stages see it, whichever way it came in: its head, what the stages
 * found (request id, key, a body read early) and the headers its answer will carry.
 */
import type { IncomingMessage } from 'node:http';
import type { AuthKey } from '../keys/keys.js';
import { safeHeaders } from './header-value.js';
import { readBodyWithin } from './read-body.js';

/** An answer a stage gives before any route runs: a status and headers, no body (a preflight). */
export interface EarlyAnswer {
  status: number;
  headers: Record<string, string>;
}

export interface Stage {
  /** Names the concern (logs, tests, the order in docs/text-path.md). */
  readonly name: string;
  /** `every` request, or only the API's (`/v1` and below). */
  readonly scope: 'every' | 'api';
  /**
   * Before the route: throws an ApiError to refuse, returns an {@link EarlyAnswer} to answer now,
   * or returns nothing to go on. A stage that need not wait returns synchronously: no promise.
   */
  readonly enter?: (x: Exchange) => undefined | EarlyAnswer | Promise<undefined | EarlyAnswer>;
  /** Once the answer's status is known, before it is written. Must not throw. */
  readonly leave?: (x: Exchange) => void;
}

/** A request header by lower-case name. */
export type HeaderReader = (name: string) => string | undefined;

/**
 * A header of a Node request: the first value of a repeated one.
 * @example const header = nodeHeaders(req); header('authorization');
 */
export function nodeHeaders(incoming: IncomingMessage): HeaderReader {
  return (name) => {
    const value = incoming.headers[name];
    return typeof value === 'string' ? value : value?.[0];
  };
}

const NO_KEY = null;

/**
 * @example
 * const x = new Exchange('POST', '/v1/chat/completions', req.url ?? '', req, nodeHeaders(req));
 */
export class Exchange {
  readonly startedAt = performance.now();
  requestId = '';
  key: AuthKey | null = NO_KEY;
  /** The most a body may weigh when read (the body-limit stage sets it). */
  maxBodyBytes = Number.POSITIVE_INFINITY;
  /** The route has read the whole body (an error then needs no draining). */
  bodyRead = false;
  /** The answer's status, once known (for `leave`). */
  status = 0;
  /** The matched route's pattern (a bounded metrics label), once known. */
  route = 'unmatched';
  /** Headers the answer carries unless it sets them itself (x-ratelimit-*, overhead). */
  readonly fallbackHeaders: Record<string, string> = {};
  /** Headers the answer carries over its own (x-request-id, CORS, connection). */
  readonly headers: Record<string, string> = {};
  /** The stages run for this request, and how many were entered (the pipeline's bookkeeping). */
  stages: readonly Stage[] = [];
  entered = 0;

  constructor(
    readonly method: string,
    /** The path, without its query. */
    readonly path: string,
    /** The request target as received: origin-form (`/v1/x?y=1`) or absolute-form. */
    readonly target: string,
    /** The Node request; null outside Node's listener (`app.request()`). */
    readonly incoming: IncomingMessage | null,
    readonly header: HeaderReader,
  ) {}

  /**
   * The whole body of the Node request, read within {@link maxBodyBytes} (413 beyond it).
   * @example const text = (await x.readBody()).toString();
   */
  async readBody(): Promise<Buffer> {
    if (!this.incoming) throw new Error('readBody: not on a Node request');
    const body = await readBodyWithin(this.incoming, this.maxBodyBytes);
    this.bodyRead = true;
    return body;
  }

  /**
   * The head of the answer: the fallbacks, the answer's own headers (made safe to send) over them,
   * the stages' headers over those (a Vary of both lists both).
   * @example res.writeHead(200, x.answerHeaders({ 'content-type': 'application/json' }));
   */
  answerHeaders(own: Record<string, string>): Record<string, string> {
    const merged = { ...this.fallbackHeaders, ...safeHeaders(own), ...this.headers };
    if (own.vary && this.headers.vary) merged.vary = `${own.vary}, ${this.headers.vary}`;
    return merged;
  }

  /**
   * The same onto a web Response's (mutable) headers, for the Hono app.
   * @example x.applyTo(c.res.headers);
   */
  applyTo(out: Headers): void {
    for (const name in this.fallbackHeaders) {
      if (!out.has(name)) out.set(name, this.fallbackHeaders[name]!);
    }
    for (const name in this.headers) {
      if (name === 'vary') out.append(name, this.headers[name]!);
      else out.set(name, this.headers[name]!);
    }
  }
}
