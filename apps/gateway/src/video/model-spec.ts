/**
 * What a video model accepts and costs: the shape of each entry in the models table, and the
 * building blocks its entries are written with.
 */
import type { VideoAdapter, VideoProviderConfig } from './providers/types.js';

export type VideoProviderName =
  | 'xai'
  | 'gemini'
  | 'kling'
  | 'byteplus'
  | 'minimax'
  | 'dashscope'
  | 'vidu'
  | 'runway'
  | 'luma';

/** Request values after defaults are applied; what cross-field rules look at. */
export interface ResolvedVideoParams {
  duration: number;
  resolution: string;
  aspectRatio: string;
  hasImage: boolean;
  hasLastFrame: boolean;
}

/** A cross-field rule's refusal: the offending param and why. */
export interface ParamProblem {
  param: string;
  message: string;
}

/**
 * One video model: what it accepts (shown at GET /v1/models and enforced at submit), its price,
 * and the adapter that speaks its provider's API.
 */
export interface VideoModelSpec {
  id: string;
  provider: VideoProviderName;
  ownedBy: string;
  durations: number[];
  defaultDuration: number;
  aspectRatios: string[];
  defaultAspectRatio: string;
  resolutions: string[];
  defaultResolution: string;
  imageInput: 'required' | 'optional' | 'none';
  lastFrame: boolean;
  generateAudio: boolean;
  seed: boolean;
  negativePrompt: boolean;
  /** Longest accepted prompt, in characters. */
  maxPromptLength: number;
  /**
   * How images reach the provider. `inline_only`: bytes only, so external URLs cannot be passed on.
   * `url_only`: URLs only (Luma), so our files go by their CDN URL, which the provider must be able
   * to reach (CDN_URL public HTTPS in production).
   */
  imageTransport: 'url_or_inline' | 'inline_only' | 'url_only';
  /** Quota units (1 credit = 1,000,000) per second of video, by resolution. */
  unitsPerSecond: Record<string, number>;
  /** How long a task may run before it is cancelled upstream and failed with `timeout`. */
  deadlineMs: number;
  /** Rules that involve several fields: returns the offending param and why, or null. */
  check?(params: ResolvedVideoParams): ParamProblem | null;
  createAdapter(config: VideoProviderConfig): VideoAdapter;
}

/** Whole numbers from `from` to `to`, both included: a model's durations in seconds. */
export function range(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_, i) => from + i);
}

/** One minute in milliseconds, for deadlines. */
export const MINUTE = 60_000;

/**
 * Credits → quota units (1 credit = 1,000,000 units).
 *
 * @example
 * credits(0.05); // 50000
 */
export function credits(amount: number): number {
  return Math.round(amount * 1_000_000);
}

/** The rule of the models that take a last frame: it needs a first frame (image_url) too. */
export function lastFrameNeedsImage(model: string, p: ResolvedVideoParams): ParamProblem | null {
  return p.hasLastFrame && !p.hasImage
    ? { param: 'last_frame_url', message: `${model} needs image_url when last_frame_url is given` }
    : null;
}
