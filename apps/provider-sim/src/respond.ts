// Writing answers: JSON, provider errors and paced SSE streams. Faults that act on the response
// body (drop-mid-stream) are applied here so every handler gets them for free.
import { setTimeout as sleep } from 'node:timers/promises';
import type { Ctx, ErrorSpec } from './context.js';

const JSON_TYPE = 'application/json';

function baseHeaders(ctx: Ctx, contentType: string): Record<string, string> {
  const headers: Record<string, string> = { 'content-type': contentType };
  if (ctx.provider.requestIdHeader) headers[ctx.provider.requestIdHeader] = ctx.requestId;
  return headers;
}

/** Sends a JSON body. Honours `latencyMs` only when the caller asks (`delay: true`). */
export function sendJson(
  ctx: Ctx,
  status: number,
  body: unknown,
  extraHeaders?: Record<string, string>,
): void {
  const { res } = ctx;
  if (res.destroyed || res.headersSent || ctx.loseResponse) return;
  const payload = body === undefined ? '' : JSON.stringify(body);
  const headers = baseHeaders(ctx, JSON_TYPE);
  if (extraHeaders) Object.assign(headers, extraHeaders);
  headers['content-length'] = String(Buffer.byteLength(payload));
  res.writeHead(status, headers);
  if (ctx.dropAfterChunks !== null) {
    // A non-streamed answer cut in half: the client sees a truncated body and a reset socket.
    res.write(payload.slice(0, Math.floor(payload.length / 2)));
    setImmediate(() => res.destroy());
    return;
  }
  res.end(payload);
}

/** Sends an empty answer (204 and the like). */
export function sendEmpty(ctx: Ctx, status: number, extraHeaders?: Record<string, string>): void {
  const { res } = ctx;
  if (res.destroyed || res.headersSent || ctx.loseResponse) return;
  const headers: Record<string, string> = { ...extraHeaders };
  if (ctx.provider.requestIdHeader) headers[ctx.provider.requestIdHeader] = ctx.requestId;
  res.writeHead(status, headers);
  res.end();
}

/** Sends binary content (video downloads). */
export function sendBytes(ctx: Ctx, status: number, contentType: string, bytes: Buffer): void {
  const { res } = ctx;
  if (res.destroyed || res.headersSent || ctx.loseResponse) return;
  const headers = baseHeaders(ctx, contentType);
  headers['content-length'] = String(bytes.length);
  res.writeHead(status, headers);
  if (ctx.method === 'HEAD') {
    res.end();
    return;
  }
  if (ctx.dropAfterChunks !== null) {
    res.write(bytes.subarray(0, Math.floor(bytes.length / 2)));
    setImmediate(() => res.destroy());
    return;
  }
  res.end(bytes);
}

/** Sends an error in the route's provider shape. */
export function sendError(ctx: Ctx, error: ErrorSpec): void {
  const rendered = ctx.provider.renderError(error, ctx);
  sendJson(ctx, rendered.status, rendered.body, error.headers);
}

/** Waits `latencyMs` (the fixed latency of non-streamed answers). */
export async function applyLatency(ctx: Ctx): Promise<void> {
  const ms = ctx.sim.options.latencyMs;
  if (ms > 0) await sleep(ms);
}

/** One SSE frame, already rendered (`data: …\n\n` or `event: …\ndata: …\n\n`). */
export interface Frame {
  text: string;
  /** A frame that carries one generated token: paced by `ttftMs` / `tokensPerSecond`. */
  token?: boolean;
}

/** Renders an OpenAI-style frame (`data:` only). */
export function dataFrame(data: unknown, token = false): Frame {
  return { text: `data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`, token };
}

/** Renders an Anthropic-style frame (`event:` + `data:`). */
export function eventFrame(event: string, data: unknown, token = false): Frame {
  return { text: `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`, token };
}

/**
 * Streams frames as `text/event-stream`. The first token frame waits `ttftMs`; later token frames
 * are spaced `1000 / tokensPerSecond` ms apart (scheduled from the start, so timers don't drift).
 * Without pacing or faults the whole stream goes out in one write: the cheapest path for benchmarks.
 */
export async function sendStream(ctx: Ctx, frames: Frame[]): Promise<void> {
  const { res } = ctx;
  if (res.destroyed || ctx.loseResponse) return;
  const headers = baseHeaders(ctx, 'text/event-stream; charset=utf-8');
  headers['cache-control'] = 'no-cache';
  headers.connection = 'keep-alive';
  res.writeHead(200, headers);

  const { ttftMs, tokensPerSecond } = ctx.sim.options;
  const drop = ctx.dropAfterChunks;
  const streamError = ctx.provider.streamErrorFrame ? ctx.streamError : null;
  if (ttftMs === 0 && tokensPerSecond === 0 && drop === null && streamError === null) {
    let all = '';
    for (const frame of frames) all += frame.text;
    res.end(all);
    return;
  }

  res.flushHeaders();
  const interval = tokensPerSecond > 0 ? 1000 / tokensPerSecond : 0;
  let start = 0;
  let tokenIndex = 0;
  let written = 0;
  for (const frame of frames) {
    if (res.destroyed) return; // the client went away: stop generating
    if (drop !== null && written >= drop) {
      res.destroy();
      return;
    }
    if (streamError !== null && written >= streamError.afterChunks) {
      res.end(ctx.provider.streamErrorFrame!(streamError.message));
      return;
    }
    if (frame.token) {
      if (tokenIndex === 0) {
        if (ttftMs > 0) await sleep(ttftMs);
        start = performance.now();
      } else if (interval > 0) {
        const due = start + tokenIndex * interval;
        const wait = due - performance.now();
        if (wait > 1) await sleep(wait);
      }
      tokenIndex++;
      if (res.destroyed) return;
    }
    res.write(frame.text);
    written++;
  }
  res.end();
}
