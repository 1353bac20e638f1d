/**
 * The text generation service: one request, from a validated body to the response the client
 * sees. The steps, in order (ARCHITECTURE.md "as a request travels"):
 *   resolve the model (404) → check the key may use it (403) → reserve (input estimate +
 *   max_tokens) × price (402) → router picks a deployment and fails over until the first byte →
 *   translate/forward → settle to actual usage (refund when nothing was produced).
 * Streams settle when they end — normally, cut short by upstream, or abandoned by the client (the
 * upstream request is aborted then) — billing what was produced.
 */
import type { Writable } from 'node:stream';
import type { Billing } from '../billing/billing.js';
import {
  ApiError,
  badRequest,
  insufficientQuota,
  notFound,
  tooLarge,
  upstreamError,
} from '../http/errors.js';
import { nodeBodyResponse } from '../http/node-body.js';
import type { AuthKey } from '../keys/keys.js';
import { holdTokens, type TokenHold } from '../limits/http.js';
import type { RateLimiter } from '../limits/limiter.js';
import type {
  ModelListEntry,
  TextDeployment,
  TextModel,
  TextModelCatalog,
} from '../models/catalog.js';
import type { Logger } from '../observability/logger.js';
import type { StandardMetrics } from '../observability/metrics.js';
import { classifyNetworkError } from '../providers/text/http.js';
import { UpstreamError, type UpstreamResponse } from '../providers/text/types.js';
import { Router, RoutingError } from '../routing/router.js';
import { DROPPED_PARAMS_HEADER } from '../translate/dropped.js';
import { SseParser } from '../translate/sse.js';
import { costUnits, reservedOutputTokens } from './cost.js';
import { inlineOwnImages, type OwnImageLoader } from './own-images.js';
import { type ClientFormat, planUpstream, type StreamPipe, type UpstreamPlan } from './plan.js';
import { countInputTokens, countTokens, estimateInputTokens } from './tokens.js';

export type { ClientFormat } from './plan.js';

export interface TextServiceDeps {
  catalog: TextModelCatalog;
  billing: Billing;
  limiter?: RateLimiter;
  log: Logger;
  stdMetrics?: StandardMetrics;
  /** Defaults to a router with the default circuit breaker. */
  router?: Router;
  /** Loads images that point at the gateway's own CDN; absent: every image URL goes upstream. */
  images?: OwnImageLoader;
}

/** What the route knows about the request besides its body. */
export interface TextRequestContext {
  key: AuthKey;
  requestId: string;
  /** performance.now() when the request arrived (for x-modelgate-overhead-ms). */
  startedAt: number;
  /**
   * The request's abort controller: the route aborts it (with an AbortError) when the client goes
   * away, and the service aborts it to stop the upstream work. Absent: the service makes its own.
   */
  abort?: AbortController;
}

export interface TextService {
  readonly catalog: TextModelCatalog;
  readonly router: Router;
  /**
   * Serves one validated request in the given client format.
   * @example
   * const res = await text.generate('chat', { model: 'gpt-4o-mini', messages }, { key, requestId, startedAt });
   */
  generate(
    format: ClientFormat,
    body: Record<string, unknown>,
    ctx: TextRequestContext,
  ): Promise<Response>;
  /** Text models for GET /v1/models. */
  listModels(): ModelListEntry[];
  /** The text models a key restricted to `allowed` sees: the listed ones among its ids. */
  listModelsFor(allowed: readonly string[]): ModelListEntry[];
  close(): Promise<void>;
}

/** The gateway's own time on this request, excluding upstream waits (DESIGN.md). */
export const OVERHEAD_HEADER = 'x-modelgate-overhead-ms';

const SSE_HEADERS = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache',
  connection: 'keep-alive',
} as const;

/**
 * An upstream refusal that failover cannot fix becomes the client's error. `clientNamedModel`:
 * the upstream model is the name the client sent (demo and pass-through modes), not one the
 * operator configured.
 */
function upstreamRefusal(error: UpstreamError, clientNamedModel: boolean): ApiError {
  if (error.status === 400 || error.status === 422) {
    return badRequest(
      `Upstream rejected the request: ${error.message}`,
      null,
      'upstream_invalid_request',
    );
  }
  // A 404 with the provider's JSON error body is its "no such model" (OpenAI model_not_found,
  // Anthropic not_found_error). It is the client's error when the client named the upstream model;
  // for a configured deployment, or without an error body (a wrong base URL), it stays a 502.
  if (error.status === 404 && error.upstreamType !== null && clientNamedModel) {
    return notFound(`Upstream: ${error.message}`, 'model_not_found', 'model');
  }
  if (error.status === 413) return tooLarge(`Upstream rejected the request: ${error.message}`);
  if (error.status === 401 || error.status === 403) {
    // The gateway's provider credentials were refused: the client can do nothing about it, and
    // the upstream's message may quote part of the key.
    return upstreamError(
      `Upstream refused the gateway's credentials (${error.status}); check the provider's API key.`,
      'upstream_error',
    );
  }
  return upstreamError(
    `Upstream error (${error.status ?? error.kind}): ${error.message}`,
    'upstream_error',
  );
}

const ROUTING_CODES = {
  429: 'upstream_rate_limited',
  502: 'upstream_error',
  503: 'no_deployment_available',
  504: 'upstream_timeout',
} as const;

function routingFailure(error: RoutingError): ApiError {
  const headers: Record<string, string> = {};
  if (error.retryAfterSeconds !== null) headers['retry-after'] = String(error.retryAfterSeconds);
  return new ApiError(error.status, error.type, error.message, {
    code: ROUTING_CODES[error.status],
    headers,
  });
}

/**
 * The generated text of a non-streamed response in any client format, tool calls included (their
 * names and arguments are output tokens too). Used only when upstream reports no usage.
 */
function responseText(body: unknown): string {
  const b = body as {
    choices?: Array<{
      text?: string;
      message?: {
        content?: string | null;
        tool_calls?: Array<{ function?: { name?: string; arguments?: string } }>;
      };
    }>;
    content?: Array<{ type?: string; text?: string; name?: string; input?: unknown }>;
  };
  if (Array.isArray(b.content)) {
    return b.content
      .map((block) => {
        if (block.type === 'text') return block.text ?? '';
        if (block.type === 'tool_use')
          return `${block.name ?? ''}${JSON.stringify(block.input ?? {})}`;
        return '';
      })
      .join('');
  }
  return (b.choices ?? [])
    .map((c) => {
      const calls = (c.message?.tool_calls ?? [])
        .map((call) => `${call.function?.name ?? ''}${call.function?.arguments ?? ''}`)
        .join('');
      return (c.message?.content ?? c.text ?? '') + calls;
    })
    .join('');
}

/** `x-modelgate-dropped-params` when the translation left fields behind, else nothing. */
function droppedHeader(plan: UpstreamPlan): Record<string, string> {
  return plan.dropped.length > 0 ? { [DROPPED_PARAMS_HEADER]: plan.dropped.join(',') } : {};
}

interface Settlement {
  key: AuthKey;
  model: TextModel;
  reserved: number;
  /** The request's worst case held against the key's tpm. */
  tokens: TokenHold;
  requestId: string;
}

/**
 * Builds the service. BASE wires it as `services.text = createTextService(services, catalog)`.
 *
 * @example
 * const text = createTextService({ catalog, billing, limiter, log });
 */
export function createTextService(deps: TextServiceDeps): TextService {
  const router = deps.router ?? new Router();
  const { catalog, billing, log } = deps;

  // Settlements run after the response is on its way (the reservation already holds the money),
  // so the database write is not on the client's latency path; close() waits for them.
  const inFlight = new Set<Promise<void>>();
  const track = (work: Promise<void>) => {
    inFlight.add(work);
    void work.finally(() => inFlight.delete(work));
  };

  const settleNow = async (
    s: Settlement,
    inputTokens: number,
    outputTokens: number,
  ): Promise<void> => {
    const units = costUnits(s.model.price, inputTokens, outputTokens);
    await s.tokens.settle(inputTokens + outputTokens);
    try {
      await billing.settle(s.key.id, s.reserved, units, undefined, {
        kind: 'text',
        model: s.model.id,
        inputTokens,
        outputTokens,
        requestId: s.requestId,
      });
    } catch (err) {
      log.error('text settlement failed', { request_id: s.requestId, err });
    }
  };

  const settle = (s: Settlement, inputTokens: number, outputTokens: number) =>
    track(settleNow(s, inputTokens, outputTokens));

  const refund = (s: Settlement) => {
    track(s.tokens.release());
    track(
      billing.refund(s.key.id, s.reserved).catch((err: unknown) => {
        log.error('text refund failed', { request_id: s.requestId, err });
      }),
    );
  };

  const countUpstreamError = (deployment: TextDeployment, error: UpstreamError) => {
    deps.stdMetrics?.upstreamErrors.inc({
      provider: deployment.provider.name,
      reason: error.kind === 'status' ? String(error.status) : error.kind,
    });
  };

  async function generate(
    format: ClientFormat,
    body: Record<string, unknown>,
    ctx: TextRequestContext,
  ): Promise<Response> {
    const modelId = String(body.model);
    const model = catalog.resolve(modelId);
    if (!model) {
      throw notFound(`The model "${modelId}" does not exist.`, 'model_not_found', 'model');
    }
    if (ctx.key.models !== null && !ctx.key.models.includes(model.id)) {
      throw new ApiError(403, 'permission_error', `This key may not use the model "${model.id}".`, {
        code: 'model_not_allowed',
        param: 'model',
      });
    }

    // Before anything is reserved: a URL of a deleted file is the client's 400.
    if (deps.images) await inlineOwnImages(format, body, deps.images);
    const estimatedInput = estimateInputTokens(format, body);
    const maxOutput = reservedOutputTokens(format, body, model);
    // tpm first: a request over the key's token rate is refused (429) before quota is touched.
    const tokens = await holdTokens(deps.limiter, ctx.key, estimatedInput + maxOutput);
    const reserved = costUnits(model.price, estimatedInput, maxOutput);
    if (!(await billing.reserve(ctx.key.id, reserved))) {
      track(tokens.release());
      throw insufficientQuota();
    }
    const settlement: Settlement = {
      key: ctx.key,
      model,
      reserved,
      tokens,
      requestId: ctx.requestId,
    };

    const streaming = body.stream === true;
    const includeUsage =
      (body.stream_options as { include_usage?: unknown } | undefined)?.include_usage === true;
    let upstreamMs = 0;
    const overhead = () => {
      const ms = Math.max(0, performance.now() - ctx.startedAt - upstreamMs);
      return ms.toFixed(2);
    };

    // One abort controller per request: client disconnect aborts whichever attempt is running.
    const abort = ctx.abort ?? new AbortController();

    type Attempt =
      | { plan: UpstreamPlan; json: unknown; raw: Buffer }
      | {
          plan: UpstreamPlan;
          deployment: TextDeployment;
          response: UpstreamResponse;
        };

    const attempt = async (deployment: TextDeployment): Promise<Attempt> => {
      const plan = planUpstream(format, body, deployment, model, { includeUsage });
      const sentAt = performance.now();
      try {
        const response = await deployment.provider.send({
          operation: plan.operation,
          body: plan.body,
          signal: abort.signal,
        });
        if (!streaming) {
          let raw: Buffer;
          try {
            raw = await response.body.collect();
          } catch (err) {
            throw classifyNetworkError(err, deployment.provider.name);
          }
          let json: unknown;
          try {
            json = JSON.parse(raw.toString('utf8'));
          } catch {
            throw new UpstreamError('status', 'Upstream sent a response that is not JSON.', 502);
          }
          return { plan, json, raw };
        }
        // Wait for the first body chunk: failover is allowed until the client sees a byte.
        try {
          await response.body.ready();
        } catch (err) {
          throw classifyNetworkError(err, deployment.provider.name);
        }
        return { plan, deployment, response };
      } catch (err) {
        if (err instanceof UpstreamError) countUpstreamError(deployment, err);
        throw err;
      } finally {
        upstreamMs += performance.now() - sentAt;
      }
    };

    let result: Attempt;
    try {
      result = await router.run(model.deployments, attempt);
    } catch (err) {
      refund(settlement);
      let failure: unknown = err;
      if (err instanceof RoutingError) failure = routingFailure(err);
      else if (err instanceof UpstreamError && err.kind === 'aborted') {
        failure = new ApiError(400, 'invalid_request_error', 'The client closed the request.', {
          code: 'client_closed_request',
        });
      } else if (err instanceof UpstreamError) {
        failure = upstreamRefusal(err, catalog.mode !== 'config');
      }
      if (failure instanceof ApiError) failure.headers[OVERHEAD_HEADER] = overhead();
      throw failure;
    }

    if ('json' in result) {
      const { body: out, usage } = result.plan.respond(result.json);
      const input = usage?.inputTokens ?? estimatedInput;
      // An upstream that reports no usage is billed from a count of the text it returned.
      const output = usage?.outputTokens ?? (await countTokens(responseText(out)));
      settle(settlement, input, output);
      const payload = result.plan.passthrough ? result.raw : JSON.stringify(out);
      const bytes = payload instanceof Buffer ? payload : Buffer.from(payload);
      // A view, not a copy: the bytes are written to the socket as they are.
      return new Response(
        new Uint8Array(bytes.buffer as ArrayBuffer, bytes.byteOffset, bytes.byteLength),
        {
          status: 200,
          headers: {
            'content-type': 'application/json',
            [OVERHEAD_HEADER]: overhead(),
            ...settlement.tokens.headers,
            ...droppedHeader(result.plan),
          },
        },
      );
    }

    return streamResponse(result, settlement, estimatedInput, abort, overhead, format, body);
  }

  function streamResponse(
    result: {
      plan: UpstreamPlan;
      deployment: TextDeployment;
      response: UpstreamResponse;
    },
    settlement: Settlement,
    estimatedInput: number,
    abort: AbortController,
    overhead: () => string,
    format: ClientFormat,
    body: Record<string, unknown>,
  ): Response {
    const pipe: StreamPipe = result.plan.stream(estimatedInput);
    const parser = new SseParser();
    const decoder = new TextDecoder();
    let finished = false;

    const finalize = async () => {
      if (finished) return;
      finished = true;
      const reported = pipe.usage;
      let input = reported.inputTokens;
      let output = reported.outputTokens;
      if (!pipe.completed || output === null) output = await countTokens(pipe.producedText);
      if (input === null) input = await countInputTokens(format, body);
      settle(settlement, input, output);
    };

    // The client-format text for one upstream chunk (or, when `last`, for what the parser held).
    const translate = (chunk: Uint8Array | undefined, last: boolean): string => {
      const text = chunk ? decoder.decode(chunk, { stream: !last }) : decoder.decode();
      const events = parser.push(text);
      if (last) events.push(...parser.flush());
      let out = '';
      for (const event of events) for (const part of pipe.feed(event)) out += part;
      return out;
    };

    // A client that disconnects aborts the request (route signal → abort): bill what was produced.
    abort.signal.addEventListener(
      'abort',
      () => {
        result.response.body.destroy?.();
        void finalize();
      },
      { once: true },
    );

    // Push-based: each upstream chunk is translated and written from the connection's data
    // callback (body.read), so a held stream allocates nothing while it waits for the next chunk.
    const relay = (sink: Writable): void => {
      const body = result.response.body;
      // The client hanging up (the Node response closing before it finished) stops the upstream
      // generation; finalize() then bills what was produced.
      const onClose = () => {
        if (!sink.writableFinished) abort.abort();
      };
      // Already gone (the client left before the head was written): 'close' will not come again.
      if (sink.destroyed) onClose();
      else sink.once('close', onClose);
      sink.on('drain', () => body.resume());
      // One write per upstream chunk, as utf-8 text: no TextEncoder copy.
      const write = (text: string): boolean => text === '' || sink.write(text);
      // The last events: what the parser still holds, then the pipe's closing events (`tail` runs
      // after the parser's rest has gone through the pipe).
      const finish = (tail: () => string[]) => {
        const rest = translate(undefined, true);
        write(rest + tail().join(''));
        // The charge is in the journal before the client sees the stream end (LEDGER.md).
        finalize()
          .catch((err: unknown) =>
            log.error('stream settlement failed', { request_id: settlement.requestId, err }),
          )
          .finally(() => sink.end());
      };
      const failRelay = (err: unknown) => {
        log.error('stream relay failed', { request_id: settlement.requestId, err });
        abort.abort(); // its listener destroys the upstream body and settles
        sink.destroy();
      };

      body.read({
        chunk(data) {
          if (abort.signal.aborted) return false;
          try {
            return write(translate(data, false));
          } catch (err) {
            failRelay(err);
            return false;
          }
        },
        end() {
          if (abort.signal.aborted) return;
          try {
            finish(() => pipe.end());
          } catch (err) {
            failRelay(err);
          }
        },
        fail(err) {
          if (abort.signal.aborted) return; // the client left; the abort listener settles
          const failure = classifyNetworkError(err, result.deployment.provider.name);
          // No failover after the first byte, but a deployment that drops streams cools down.
          router.breaker.recordFailure(result.deployment.id);
          countUpstreamError(result.deployment, failure);
          log.warn('upstream stream failed', {
            request_id: settlement.requestId,
            error: failure.message,
          });
          const type = failure.kind === 'timeout' ? 'upstream_timeout' : 'upstream_error';
          try {
            finish(() => pipe.fail(type, 'The upstream stream failed before completion.'));
          } catch (error) {
            failRelay(error);
          }
        },
      });
    };

    return nodeBodyResponse(
      200,
      {
        ...SSE_HEADERS,
        [OVERHEAD_HEADER]: overhead(),
        ...settlement.tokens.headers,
        ...droppedHeader(result.plan),
      },
      { pipe: relay },
    );
  }

  return {
    catalog,
    router,
    generate,
    listModels: () => catalog.list(),
    listModelsFor(allowed) {
      const listed = new Map(catalog.list().map((m) => [m.id, m]));
      return allowed.flatMap((id) => listed.get(id) ?? []);
    },
    async close() {
      await Promise.allSettled([...inFlight]);
      await catalog.close();
    },
  };
}
