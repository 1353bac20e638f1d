// The per-request context handed to every handler, and the simulator-wide state it reaches.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FaultController } from './faults.js';
import type { ResolvedOptions } from './options.js';
import type { PromptCache } from './text/prompt-cache.js';
import type { TaskStore } from './video/tasks.js';

/** An error in the neutral form; each provider renders it in its own wire shape. */
export interface ErrorSpec {
  status: number;
  message: string;
  /** Provider-specific code; each renderer picks a sensible default per status when absent. */
  code?: string;
  param?: string | null;
  /** Extra response headers (e.g. `Retry-After`). */
  headers?: Record<string, string>;
}

/** One upstream provider as the simulator serves it. */
export interface Provider {
  id: string;
  /** URL prefix in the simulator, e.g. `/openai/v1`. */
  prefix: string;
  /** Renders an error in the provider's own shape; may change the HTTP status (MiniMax answers 200). */
  renderError(error: ErrorSpec, ctx: Ctx): { status: number; body: unknown };
  /** The SSE frame a streaming provider sends for an error after the 200 (text providers only). */
  streamErrorFrame?(message: string): string;
  /** Response header carrying the request id, if the provider sends one. */
  requestIdHeader?: string;
}

/** Simulator-wide state shared by all handlers. */
export interface SimState {
  options: ResolvedOptions;
  faults: FaultController;
  tasks: TaskStore;
  /** Prompt prefixes each text API has cached (reads and writes in the usage it reports). */
  promptCache: PromptCache;
  /** Public base URL of the simulator, e.g. `http://127.0.0.1:9090` (set once listening). */
  baseUrl: string;
  /** Whether a provider key is accepted (non-empty, and equal to `requireKey` when set). */
  keyAccepted(key: string | undefined | null): boolean;
}

export interface Ctx {
  req: IncomingMessage;
  res: ServerResponse;
  method: string;
  path: string;
  query: URLSearchParams;
  /** Captures of the route's pattern, in order. */
  params: string[];
  /** Parsed JSON body (`undefined` when the request had none). */
  body: unknown;
  rawBody: Buffer;
  sim: SimState;
  provider: Provider;
  requestId: string;
  /** Set by a `drop-mid-stream` fault: destroy the socket after this many chunks. */
  dropAfterChunks: number | null;
  /** Set by a `lose-response` fault: the handler runs, but nothing is ever written back. */
  loseResponse: boolean;
  /** Set by a `stream-error` fault: send the provider's error event after this many chunks. */
  streamError: { afterChunks: number; message: string } | null;
}
