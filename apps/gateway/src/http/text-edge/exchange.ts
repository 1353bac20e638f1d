/**
 * One request on the text edge, from its head to its access-log line: the stages in `answer()`,
 * then the answer (or the error) written to Node's response.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError } from '../../errors/api-error.js';
import { errorBody } from '../../errors/body.js';
import type { AuthKey, KeyService } from '../../keys/keys.js';
import type { RateLimiter } from '../../limits/limiter.js';
import type { Logger } from '../../observability/logger.js';
import type { StandardMetrics } from '../../observability/metrics.js';
import type { ResponsesService } from '../../responses/index.js';
import type { Services } from '../../services.js';
import { OVERHEAD_HEADER, type TextAnswer, type TextService } from '../../text/service.js';
import { abortWhenClientGone } from '../client-abort.js';
import { answerableError } from '../errors.js';
import { safeHeaders } from '../header-value.js';
import { presentedKey } from '../middleware/auth.js';
import { readBodyWithin, refuseDeclaredOverLimit } from '../middleware/body-limit.js';
import { drainUnreadBody } from '../middleware/close-unread.js';
import { apiCorsOptions, corsResponseHeaders } from '../middleware/cors.js';
import { recordRequest } from '../middleware/observe.js';
import { countRequest } from '../middleware/rate-limit.js';
import { pickRequestId } from '../middleware/request-id.js';
import { nulInQuery } from '../middleware/request-target.js';
import { NodeStreamSink } from '../node-adapter.js';
import { unsafeTextError } from '../unsafe-text.js';
import { parseJsonBody } from '../validate.js';
import type { TextRoute } from './routes.js';

/** What every exchange on the edge shares: the services it calls and the settings it applies. */
export interface EdgeContext {
  text: TextService;
  responses: ResponsesService;
  keys: KeyService;
  limiter: RateLimiter;
  log: Logger;
  metrics: StandardMetrics;
  maxJsonBytes: number;
  corsFor: (origin: string | undefined) => Record<string, string>;
}

export class TextExchange {
  private readonly startedAt = performance.now();
  private readonly requestId: string;
  private key: AuthKey | null = null;
  private rateHeaders: Readonly<Record<string, string>> = {};
  private bodyRead = false;

  static context(services: Services): EdgeContext {
    return {
      text: services.text,
      responses: services.responses,
      keys: services.keys,
      limiter: services.limiter,
      log: services.log,
      metrics: services.stdMetrics,
      maxJsonBytes: services.config.maxJsonBytes,
      corsFor: corsResponseHeaders(apiCorsOptions(services.config.corsOrigins)),
    };
  }

  constructor(
    private readonly req: IncomingMessage,
    private readonly res: ServerResponse,
    private readonly route: TextRoute,
    private readonly ctx: EdgeContext,
  ) {
    this.requestId = pickRequestId(this.header('x-request-id'));
  }

  /** Answers the request, then counts it and logs it. Never rejects. */
  async serve(): Promise<void> {
    const { metrics, log } = this.ctx;
    const { path } = this.route;
    let outcome: TextAnswer | ApiError;
    metrics.inFlight.inc();
    try {
      outcome = await this.answer();
    } catch (err) {
      outcome = answerableError(err, log, { requestId: this.requestId, path });
    } finally {
      metrics.inFlight.dec();
    }
    const seconds = (performance.now() - this.startedAt) / 1000;
    if (outcome instanceof ApiError) this.writeError(outcome);
    else this.write(outcome);
    setImmediate(recordRequest, metrics, log, {
      request_id: this.requestId,
      method: 'POST',
      route: path,
      path,
      status: outcome instanceof ApiError ? outcome.status : 200,
      seconds,
      key_id: this.key?.id ?? null,
    });
  }

  /** The stages, in the order the app's middleware and routes run them for other routes. */
  private async answer(): Promise<TextAnswer> {
    const { ctx, route } = this;
    refuseDeclaredOverLimit(this.req, ctx.maxJsonBytes);
    const key = await ctx.keys.authenticate(presentedKey(route.path, this.header));
    this.key = key;
    this.rateHeaders = await countRequest(ctx.limiter, key);
    const url = this.req.url ?? '';
    const nulHolder = url.includes('?') ? nulInQuery(url.slice(url.indexOf('?'))) : null;
    if (nulHolder) throw unsafeTextError('nul', nulHolder);
    const routeHeaders = route.readHeaders(this.header);
    const body = await readBodyWithin(this.req, ctx.maxJsonBytes);
    this.bodyRead = true;
    const request = route.toRequest(
      parseJsonBody(body.toString(), this.header('content-type')),
      this.header,
    );
    const textCtx = {
      key,
      requestId: this.requestId,
      startedAt: this.startedAt,
      abort: abortWhenClientGone(this.res),
    };
    const answer =
      request.format === 'responses'
        ? await ctx.responses.create(request.body, textCtx)
        : await ctx.text.generate(request, textCtx);
    Object.assign(answer.headers, routeHeaders);
    return answer;
  }

  private write(answer: TextAnswer): void {
    const headers = this.headersWith(answer.headers);
    try {
      if (answer.kind === 'json') {
        headers['content-length'] = String(answer.body.byteLength);
        this.res.writeHead(200, headers).end(answer.body);
        return;
      }
      this.res.writeHead(200, headers);
      // The head goes out now: a stream's first event may take a while, and clients wait on it.
      this.res.flushHeaders();
    } catch (err) {
      // A head Node refuses to write (a header value it cannot send): the request cannot be answered.
      this.ctx.log.error('could not write the answer', { request_id: this.requestId, err });
      this.res.destroy();
      return;
    }
    answer.write(new NodeStreamSink(this.res));
  }

  private writeError(err: ApiError): void {
    const headers = this.headersWith({ 'content-type': 'application/json', ...err.headers });
    headers[OVERHEAD_HEADER] ??= Math.max(0, performance.now() - this.startedAt).toFixed(2);
    // A body still on its way (a refusal before it was read): drained when small, else cut.
    if (!this.bodyRead && !drainUnreadBody(this.req)) headers.connection = 'close';
    const body = JSON.stringify(errorBody(err, this.route.path));
    headers['content-length'] = String(Buffer.byteLength(body));
    this.res.writeHead(err.status, headers).end(body);
  }

  /**
   * An answer's own headers over the key's x-ratelimit-* (the text service's, taken after its
   * token reservation, are newer), then CORS and the request id.
   */
  private headersWith(own: Record<string, string>): Record<string, string> {
    return {
      ...this.rateHeaders,
      ...safeHeaders(own),
      ...this.ctx.corsFor(this.header('origin')),
      'x-request-id': this.requestId,
    };
  }

  private readonly header = (name: string): string | undefined => {
    const value = this.req.headers[name];
    return typeof value === 'string' ? value : value?.[0];
  };
}
