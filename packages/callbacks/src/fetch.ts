// Fetch-style receivers (Hono, Next.js route handlers, Deno, Bun, edge workers): Request in, Response out.
import { CallbackVerificationError } from './errors.js';
import { prepareKeys } from './secret.js';
import type { WebhookEvent } from './types.js';
import { type VerifyOptions, verifyWithKeys } from './verify.js';

/**
 * Reads a fetch `Request`'s raw body and verifies it. Consumes the body.
 *
 * @example
 * // Next.js route handler (app/api/modelgate/route.ts)
 * export async function POST(request: Request) {
 *   const event = await verifyRequest(request, { secret: process.env.MODELGATE_CALLBACK_SECRET! });
 *   if (event.type !== 'budget.threshold') await markDone(event.data.task_id);
 *   return new Response(null, { status: 204 });
 * }
 */
export async function verifyRequest(
  request: Request,
  options: VerifyOptions,
): Promise<WebhookEvent> {
  const keys = await prepareKeys(options.secret);
  return verifyRequestWithKeys(request, options, keys);
}

async function verifyRequestWithKeys(
  request: Request,
  options: Omit<VerifyOptions, 'secret'>,
  keys: readonly CryptoKey[],
): Promise<WebhookEvent> {
  const body = new Uint8Array(await request.arrayBuffer());
  return verifyWithKeys({ ...options, body, headers: request.headers }, keys);
}

/** Called with each verified event. Return a Response to answer with it; otherwise the handler answers 204. */
export type FetchEventHandler = (event: WebhookEvent, request: Request) => MaybeResponse;

// An async onEvent that returns nothing is Promise<void>, so `void` (not `undefined`) is the honest type.
// biome-ignore lint/suspicious/noConfusingVoidType: see above
type MaybeResponse = void | Response | Promise<void | Response>;

/**
 * A `(request) => Promise<Response>` receiver: verifies, calls `onEvent`, answers 204 (or `onEvent`'s
 * Response). A refused callback gets 400/401 with `{"error": {"reason", "message"}}`; an error thrown
 * by `onEvent` propagates, so your framework answers 5xx and modelgate retries. A malformed secret
 * throws here, at creation.
 *
 * @example
 * const handler = createFetchHandler({ secret }, async (event) => { await save(event); });
 * Deno.serve(handler);                               // Deno
 * export default { fetch: handler };                 // Bun, Cloudflare Workers
 * app.post('/callbacks', (c) => handler(c.req.raw)); // Hono
 */
export function createFetchHandler(
  options: VerifyOptions,
  onEvent: FetchEventHandler,
): (request: Request) => Promise<Response> {
  const keys = prepareKeys(options.secret);
  // A rejection here is reported to every request; keep it from being "unhandled" in between.
  keys.catch(() => {});
  return async (request) => {
    if (request.method !== 'POST') {
      return Response.json(
        { error: { reason: 'method_not_allowed', message: 'callbacks are POSTed' } },
        { status: 405, headers: { allow: 'POST' } },
      );
    }
    let event: WebhookEvent;
    try {
      event = await verifyRequestWithKeys(request, options, await keys);
    } catch (error) {
      if (error instanceof CallbackVerificationError) return refusal(error);
      throw error;
    }
    const response = await onEvent(event, request);
    return response ?? new Response(null, { status: 204 });
  };
}

/** The JSON answer for a refused callback. */
export function refusal(error: CallbackVerificationError): Response {
  return Response.json(refusalBody(error), { status: error.status });
}

/** `{"error": {"reason", "message", "header"?}}` */
export function refusalBody(error: CallbackVerificationError): {
  error: { reason: string; message: string; header?: string };
} {
  return {
    error: {
      reason: error.reason,
      message: error.message,
      ...(error.header ? { header: error.header } : {}),
    },
  };
}
