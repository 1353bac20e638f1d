// The HTTP server: one dispatcher in front of every provider's routes. It parses the body once,
// counts the request, applies faults, then hands a context to the route's handler.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Ctx, ErrorSpec, Provider, SimState } from './context.js';
import { controlProvider, controlRoutes } from './control.js';
import { embeddingProviders } from './embeddings/registry.js';
import { HttpError } from './errors.js';
import { FaultController, REQUEST_FAULT_KINDS } from './faults.js';
import { imageProviders } from './images/registry.js';
import { type ResolvedOptions, resolveOptions, type SimulatorOptions } from './options.js';
import { sendError } from './respond.js';
import { Router } from './router.js';
import { Stats } from './stats.js';
import { anthropicProvider, anthropicRoutes } from './text/anthropic.js';
import type { TextModelLists } from './text/models.js';
import { openaiProvider, openaiRoutes } from './text/openai.js';
import { PromptCache } from './text/prompt-cache.js';
import { videoProviders } from './video/registry.js';
import { TaskStore } from './video/tasks.js';

/** Bodies larger than this are refused (inline base64 images stay far below). */
const MAX_BODY_BYTES = 64 * 1024 * 1024;

/** The handle `startSimulator` resolves to. */
export interface Simulator {
  /** Base URL, e.g. `http://127.0.0.1:9090` (append a provider prefix such as `/openai/v1`). */
  url: string;
  port: number;
  /** Add or clear faults programmatically (same store as `POST /__sim/faults`). */
  faults: FaultController;
  /** Request counts per route (same as `GET /__sim/stats`). */
  stats(): { total: number; routes: Record<string, number> };
  /** What the text list endpoints answer; push or remove ids to change it while running. */
  textModels: TextModelLists;
  /** Stops listening and drops open connections (hung requests included). */
  close(): Promise<void>;
}

function buildRouter(stats: Stats): Router {
  const router = new Router();
  router.add(controlProvider, controlRoutes(stats));
  router.add(openaiProvider, openaiRoutes);
  router.add(anthropicProvider, anthropicRoutes);
  for (const { provider, routes } of videoProviders) router.add(provider, routes);
  for (const { provider, routes } of imageProviders) router.add(provider, routes);
  for (const { provider, routes } of embeddingProviders) router.add(provider, routes);
  return router;
}

/** The upstream model a request names, for fault matching (body field, or Gemini's URL). */
function requestModel(body: unknown, path: string): string | undefined {
  if (typeof body === 'object' && body !== null) {
    const record = body as Record<string, unknown>;
    if (typeof record.model === 'string') return record.model;
    if (typeof record.model_name === 'string') return record.model_name;
  }
  const m = /\/models\/([^/:]+)/.exec(path);
  return m ? m[1] : undefined;
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(new HttpError({ status: 413, message: 'Request body too large' }));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

const EMPTY = Buffer.alloc(0);

function isMultipart(req: IncomingMessage): boolean {
  return /^multipart\/form-data/i.test(req.headers['content-type'] ?? '');
}
let requestCounter = 0;
const REQUEST_ID_PREFIX = `req_${Math.random().toString(36).slice(2, 8)}`;

function createHandler(state: SimState, router: Router, stats: Stats) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const rawUrl = req.url ?? '/';
    const q = rawUrl.indexOf('?');
    const path = q === -1 ? rawUrl : rawUrl.slice(0, q);
    const method = req.method ?? 'GET';
    const match = router.match(method, path);
    const provider: Provider = match?.route.provider ?? router.providerFor(path) ?? controlProvider;
    const ctx: Ctx = {
      req,
      res,
      method,
      path,
      query: new URLSearchParams(q === -1 ? '' : rawUrl.slice(q + 1)),
      params: match?.params ?? [],
      body: undefined,
      rawBody: EMPTY,
      sim: state,
      provider,
      requestId: `${REQUEST_ID_PREFIX}${(++requestCounter).toString(36)}`,
      dropAfterChunks: null,
      loseResponse: false,
      streamError: null,
    };
    try {
      if (
        req.headers['content-length'] !== undefined ||
        req.headers['transfer-encoding'] !== undefined
      ) {
        ctx.rawBody = await readBody(req);
      }
      if (!match) {
        stats.record('unmatched');
        throw new HttpError({ status: 404, message: `No route for ${method} ${path}` });
      }
      const { route } = match;
      if (!route.control) stats.record(route.name);
      // Multipart bodies (OpenAI's image edits and variations) are read by their handlers.
      if (ctx.rawBody.length > 0 && !isMultipart(req)) {
        try {
          ctx.body = JSON.parse(ctx.rawBody.toString('utf8'));
        } catch {
          throw new HttpError({ status: 400, message: 'The request body is not valid JSON.' });
        }
      }
      if (!route.control && state.faults.size > 0) {
        const fault = state.faults.take(REQUEST_FAULT_KINDS, path, requestModel(ctx.body, path));
        if (fault?.kind === 'hang') return; // never answer; close() drops the socket
        if (fault?.kind === 'delay') await sleep(fault.ms);
        if (fault?.kind === 'drop-mid-stream') ctx.dropAfterChunks = fault.afterChunks;
        if (fault?.kind === 'lose-response') ctx.loseResponse = true;
        if (fault?.kind === 'stream-error') {
          ctx.streamError = {
            afterChunks: fault.afterChunks,
            message: fault.message ?? 'Overloaded',
          };
        }
        if (fault?.kind === 'status') {
          const error: ErrorSpec = {
            status: fault.status,
            message: fault.message ?? defaultFaultMessage(fault.status),
          };
          if (fault.retryAfter !== undefined)
            error.headers = { 'retry-after': String(fault.retryAfter) };
          sendError(ctx, error);
          return;
        }
      }
      await route.handler(ctx);
    } catch (error) {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      if (error instanceof HttpError) {
        sendError(ctx, error.spec);
        return;
      }
      sendError(ctx, { status: 500, message: `Simulator error: ${(error as Error).message}` });
    }
  };
}

function defaultFaultMessage(status: number): string {
  if (status === 429) return 'Rate limit exceeded (simulated).';
  if (status === 529 || status === 503) return 'Overloaded (simulated).';
  return 'Internal server error (simulated).';
}

/**
 * Starts the provider simulator.
 *
 * @example
 * import { startSimulator } from '@modelgate/provider-sim';
 * const sim = await startSimulator({ ttftMs: 50, tokensPerSecond: 200 });
 * const res = await fetch(`${sim.url}/openai/v1/chat/completions`, {
 *   method: 'POST',
 *   headers: { authorization: 'Bearer sk-test', 'content-type': 'application/json' },
 *   body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }] }),
 * });
 * await sim.close();
 */
export async function startSimulator(options: SimulatorOptions = {}): Promise<Simulator> {
  const resolved: ResolvedOptions = resolveOptions(options);
  const faults = new FaultController();
  const stats = new Stats();
  const state: SimState = {
    options: resolved,
    faults,
    tasks: new TaskStore(),
    promptCache: new PromptCache(),
    baseUrl: '',
    keyAccepted(key) {
      if (!key) return false;
      return resolved.requireKey === undefined || key === resolved.requireKey;
    },
  };
  const router = buildRouter(stats);
  const server: Server = createServer(
    { keepAliveTimeout: 65_000 },
    createHandler(state, router, stats),
  );
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(resolved.port, resolved.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const host = resolved.host.includes(':') ? `[${resolved.host}]` : resolved.host;
  const displayHost = host === '0.0.0.0' || host === '[::]' ? '127.0.0.1' : host;
  state.baseUrl = `http://${displayHost}:${port}`;

  return {
    url: state.baseUrl,
    port,
    faults,
    stats: () => stats.snapshot(),
    textModels: resolved.textModels,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
