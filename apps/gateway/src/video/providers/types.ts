/**
 * The one interface every video provider adapter implements. Adapters are plain objects over
 * `fetch`: they speak one provider's real wire protocol (docs/providers.md §3–§11) and know nothing
 * about tasks, billing or the database.
 *
 * @example
 * const adapter = createXaiAdapter({ baseUrl: 'https://api.x.ai/v1', apiKey: 'xai-…' });
 * const { upstreamId } = await adapter.submit({ prompt: 'a boat', duration: 8, resolution: '480p', aspectRatio: '16:9' });
 * const status = await adapter.poll(upstreamId); // { state: 'in_progress', progress: 40 }
 */

/** An image handed to a provider: a public URL, or the bytes inline. */
export type ImageInput =
  | { kind: 'url'; url: string }
  | { kind: 'inline'; mimeType: string; base64: string };

/** A submit request in our vocabulary (already validated against the model's table). */
export interface VideoSubmitRequest {
  prompt: string;
  /** Seconds. */
  duration: number;
  /** Our resolution words (`480p`, `720p`, `768p`, `1080p`, …). */
  resolution: string;
  aspectRatio?: string;
  image?: ImageInput;
  lastFrame?: ImageInput;
  seed?: number;
  negativePrompt?: string;
  generateAudio?: boolean;
}

export type UpstreamState = 'pending' | 'in_progress' | 'completed' | 'failed';

export interface PollResult {
  state: UpstreamState;
  /** 0–100 when the provider reports it. */
  progress?: number;
  /** Where the finished MP4 can be downloaded (state `completed`). */
  resultUrl?: string;
  /** Seconds of video the provider reports having produced. */
  duration?: number;
  /** Why it failed (state `failed`). */
  error?: { code: string; message: string };
}

// The PollResult shapes every adapter answers with, so each adapter spells out only its wire words.

/** A finished task: progress 100 and where to download it (`duration` when the provider says). */
export function completed(resultUrl: string, duration?: number): PollResult {
  return { state: 'completed', progress: 100, resultUrl, duration };
}

/**
 * A failed task with a code callers can branch on and a message naming the provider.
 *
 * @example
 * failed('expired', 'xai: the request expired');
 */
export function failed(code: string, message: string): PollResult {
  return { state: 'failed', error: { code, message } };
}

/** What the engine hands an adapter with every submit. */
export interface SubmitOptions {
  /**
   * Our id for this task, the same on every attempt. Adapters whose provider takes a client
   * reference (Kling `external_task_id`) send it, so an interrupted submit can be found again.
   */
  reference: string;
}

export interface VideoAdapter {
  /** Provider name (`xai`, `gemini`, `kling`, …). */
  readonly provider: string;
  submit(request: VideoSubmitRequest, options?: SubmitOptions): Promise<{ upstreamId: string }>;
  /**
   * Finds the upstream task an earlier `submit` with this `reference` created (the gateway
   * stopped before it recorded the answer): its upstream id, or null when the provider has no
   * task with that reference. Absent when the provider offers no such lookup; the engine then
   * sends the same request again.
   */
  findSubmitted?(
    reference: string,
    request: VideoSubmitRequest,
  ): Promise<{ upstreamId: string } | null>;
  /** Provider words the adapter does not know map to `in_progress`. */
  poll(upstreamId: string): Promise<PollResult>;
  /** Best-effort upstream cancel; absent when the provider has none. */
  cancel?(upstreamId: string): Promise<void>;
  /** Fetches the finished video (auth headers added where the provider needs them). */
  download(result: { resultUrl: string }): Promise<Response>;
}

/** Connection settings of one provider. */
export interface VideoProviderConfig {
  baseUrl: string;
  apiKey?: string;
  /** Kling only. */
  accessKey?: string;
  /** Kling only. */
  secretKey?: string;
  /**
   * Overrides the upstream model id the adapter sends. DashScope takes a prefix (`wan2.6` →
   * `wan2.6-t2v` / `wan2.6-i2v`); Vidu the text-to-video id (image-to-video adds `-pro`).
   */
  upstreamModel?: string;
  /** Timeout of one API call (not the download), ms. Default 30 s. */
  timeoutMs?: number;
}

/**
 * An upstream failure as a value. `retryable` means the provider did not take the request
 * (429, 503, connection refused) so it may be sent again later; `retryAfterMs` when known.
 */
export class ProviderError extends Error {
  constructor(
    readonly provider: string,
    readonly status: number,
    readonly code: string,
    message: string,
    readonly retryable: boolean,
    readonly retryAfterMs?: number,
  ) {
    super(message);
    this.name = 'ProviderError';
  }
}
