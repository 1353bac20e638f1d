import {
  DEFAULT_ANTHROPIC_MODELS,
  DEFAULT_OPENAI_MODELS,
  type TextModelLists,
} from './text/models.js';

/** Options of `startSimulator`. Every field is optional. */
export interface SimulatorOptions {
  /** Port to listen on; 0 (default) lets the OS choose. */
  port?: number;
  /** Interface to bind; default `127.0.0.1`. */
  host?: string;
  /** Delay before the first streamed token, in ms (default 0). */
  ttftMs?: number;
  /** Streaming pace; 0 (default) = as fast as possible. One token per chunk. */
  tokensPerSecond?: number;
  /** Fixed latency before a non-streamed answer, in ms (default 0). */
  latencyMs?: number;
  /** Default completion length in tokens when `max_tokens` does not cut it shorter (default 32). */
  outputTokens?: number;
  video?: {
    /** Time from submit to a finished video, in ms (default 1500). */
    processingMs?: number;
  };
  /** Kling credentials the JWT must be signed with (default `sim-access-key` / `sim-secret-key`). */
  kling?: { accessKey: string; secretKey: string };
  /** If set, only this provider key is accepted; by default any non-empty key is. */
  requireKey?: string;
  /**
   * The ids `GET /openai/v1/models` and `GET /anthropic/v1/models` list (default: a mix of chat,
   * embedding, audio, image and moderation models, a snapshot and a fine-tune for OpenAI; three
   * Claude models). Chat requests accept any id either way.
   */
  textModels?: { openai?: readonly string[]; anthropic?: readonly string[] };
}

export interface ResolvedOptions {
  port: number;
  host: string;
  ttftMs: number;
  tokensPerSecond: number;
  latencyMs: number;
  outputTokens: number;
  videoProcessingMs: number;
  kling: { accessKey: string; secretKey: string };
  requireKey: string | undefined;
  /** Live lists: the simulator handle exposes the same arrays. */
  textModels: TextModelLists;
}

export function resolveOptions(options: SimulatorOptions = {}): ResolvedOptions {
  return {
    port: options.port ?? 0,
    host: options.host ?? '127.0.0.1',
    ttftMs: Math.max(0, options.ttftMs ?? 0),
    tokensPerSecond: Math.max(0, options.tokensPerSecond ?? 0),
    latencyMs: Math.max(0, options.latencyMs ?? 0),
    outputTokens: Math.max(1, Math.floor(options.outputTokens ?? 32)),
    videoProcessingMs: Math.max(0, options.video?.processingMs ?? 1500),
    kling: options.kling ?? { accessKey: 'sim-access-key', secretKey: 'sim-secret-key' },
    requireKey: options.requireKey,
    textModels: {
      openai: [...(options.textModels?.openai ?? DEFAULT_OPENAI_MODELS)],
      anthropic: [...(options.textModels?.anthropic ?? DEFAULT_ANTHROPIC_MODELS)],
    },
  };
}
