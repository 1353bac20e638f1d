/**
 * One request on the text edge, from its head to its access-log line: the pipeline's stages, the
 * route (`answer()`), the stages unwound, then the answer (or the error) written to Node's response.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError } from '../../errors/api-error.js';
import { errorBody } from '../../errors/body.js';
import type { Logger } from '../../observability/logger.js';
import type { ResponsesService } from '../../responses/index.js';
import type { Services } from '../../services.js';
import type { TextAnswer, TextService } from '../../text/service.js';
import { abortWhenClientGone } from '../client-abort.js';
import { answerableError } from '../errors.js';
import type { EarlyAnswer } from '../exchange.js';
import { Exchange, nodeHeaders } from '../exchange.js';
import { NodeStreamSink } from '../node-adapter.js';
import type { Pipeline } from '../pipeline.js';
import { parseJsonBody } from '../validate.js';
import type { TextRoute } from './routes.js';

/** What every exchange on the edge shares: the stages, the services it calls, its settings. */
export interface EdgeContext {
  pipeline: Pipeline;
  text: TextService;
  responses: ResponsesService;
  log: Logger;
}

type Outcome = TextAnswer | ApiError | EarlyAnswer;

export class TextExchange {
  private readonly x: Exchange;

  static context(services: Services, pipeline: Pipeline): EdgeContext {
    return {
      pipeline,
      text: services.text,
      responses: services.responses,
      log: services.log,
    };
  }

  constructor(
    req: IncomingMessage,
    private readonly res: ServerResponse,
    private readonly route: TextRoute,
    private readonly ctx: EdgeContext,
  ) {
    this.x = new Exchange('POST', route.path, req.url ?? '', req, nodeHeaders(req));
  }

  /** Runs the stages and the route, then writes the answer. Never rejects. */
  async serve(): Promise<void> {
    const { x, ctx } = this;
    let outcome: Outcome;
    try {
      outcome = (await ctx.pipeline.enter(x)) ?? (await this.answer());
    } catch (err) {
      outcome = answerableError(err, ctx.log, { requestId: x.requestId, path: x.path });
    }
    x.status =
      outcome instanceof ApiError ? outcome.status : 'kind' in outcome ? 200 : outcome.status;
    x.route = x.path;
    ctx.pipeline.leave(x);
    if (outcome instanceof ApiError) this.writeError(outcome);
    else if ('kind' in outcome) this.write(outcome);
    else this.writeEarly(outcome);
  }

  /** The route: its headers, its JSON body, then the text service. */
  private async answer(): Promise<TextAnswer> {
    const { ctx, route, x } = this;
    // The auth stage sets it; a list of stages without one cannot serve a text route.
    if (!x.key) throw new Error('the text routes need the auth stage');
    const routeHeaders = route.readHeaders(x.header);
    const body = await x.readBody();
    const request = route.toRequest(
      parseJsonBody(body.toString(), x.header('content-type')),
      x.header,
    );
    const textCtx = {
      key: x.key,
      requestId: x.requestId,
      startedAt: x.startedAt,
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
    const headers = this.x.answerHeaders(answer.headers);
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
      this.ctx.log.error('could not write the answer', { request_id: this.x.requestId, err });
      this.res.destroy();
      return;
    }
    answer.write(new NodeStreamSink(this.res));
  }

  private writeError(err: ApiError): void {
    const headers = this.x.answerHeaders({ 'content-type': 'application/json', ...err.headers });
    const body = JSON.stringify(errorBody(err, this.route.path));
    headers['content-length'] = String(Buffer.byteLength(body));
    this.res.writeHead(err.status, headers).end(body);
  }

  private writeEarly(early: EarlyAnswer): void {
    const headers = this.x.answerHeaders(early.headers);
    headers['content-length'] = '0';
    this.res.writeHead(early.status, headers).end();
  }
}
