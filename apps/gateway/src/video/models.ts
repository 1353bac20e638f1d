/**
 * The video model table: what each model accepts (shown at GET /v1/models and enforced at submit),
 * its price and its provider. Data and its type only, so the table can join the other kinds' in one
 * catalogue; the adapters that speak each provider's API are in `providers/`.
 */
import { credits, unitsToCredits } from '../billing/billing.js';

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
 * and the provider that serves it (`VIDEO_ADAPTERS` in the feature's `index.ts` holds each
 * provider's adapter).
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
}

/** Whole numbers from `from` to `to`, both included: a model's durations in seconds. */
function range(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_, i) => from + i);
}

/** One minute in milliseconds, for deadlines. */
const MINUTE = 60_000;

/** The rule of the models that take a last frame: it needs a first frame (image_url) too. */
function lastFrameNeedsImage(model: string, p: ResolvedVideoParams): ParamProblem | null {
  return p.hasLastFrame && !p.hasImage
    ? { param: 'last_frame_url', message: `${model} needs image_url when last_frame_url is given` }
    : null;
}

/**
 * The nine video models. A new provider is one adapter file (registered in `VIDEO_ADAPTERS`, in
 * the feature's index.ts) and one entry here.
 *
 * @example
 * VIDEO_MODELS['kling-v3'].durations; // [3, 4, …, 15]
 */
export const VIDEO_MODELS: Record<string, VideoModelSpec> = {
  'grok-imagine-video': {
    id: 'grok-imagine-video',
    provider: 'xai',
    ownedBy: 'xai',
    durations: range(1, 15),
    defaultDuration: 8,
    aspectRatios: ['16:9', '1:1', '9:16', '4:3', '3:4', '3:2', '2:3'],
    defaultAspectRatio: '16:9',
    resolutions: ['480p', '720p'],
    defaultResolution: '480p',
    imageInput: 'optional',
    lastFrame: false,
    generateAudio: false,
    seed: false,
    negativePrompt: false,
    maxPromptLength: 4000,
    imageTransport: 'url_or_inline',
    unitsPerSecond: { '480p': credits(0.05), '720p': credits(0.07) },
    deadlineMs: 20 * MINUTE,
  },
  'veo-3-1': {
    id: 'veo-3-1',
    provider: 'gemini',
    ownedBy: 'google',
    durations: [4, 6, 8],
    defaultDuration: 8,
    aspectRatios: ['16:9', '9:16'],
    defaultAspectRatio: '16:9',
    resolutions: ['720p', '1080p'],
    defaultResolution: '720p',
    imageInput: 'optional',
    lastFrame: true,
    generateAudio: false,
    seed: false,
    negativePrompt: true,
    maxPromptLength: 4000,
    imageTransport: 'inline_only',
    unitsPerSecond: { '720p': credits(0.4), '1080p': credits(0.4) },
    deadlineMs: 30 * MINUTE,
    check: (p) =>
      p.resolution === '1080p' && p.duration !== 8
        ? { param: 'duration', message: 'veo-3-1 renders 1080p only at duration 8' }
        : lastFrameNeedsImage('veo-3-1', p),
  },
  'kling-v3': {
    id: 'kling-v3',
    provider: 'kling',
    ownedBy: 'kuaishou',
    durations: range(3, 15),
    defaultDuration: 5,
    aspectRatios: ['16:9', '9:16', '1:1'],
    defaultAspectRatio: '16:9',
    resolutions: ['720p', '1080p'],
    defaultResolution: '720p',
    imageInput: 'optional',
    lastFrame: true,
    generateAudio: true,
    seed: false,
    negativePrompt: true,
    maxPromptLength: 2500,
    imageTransport: 'url_or_inline',
    unitsPerSecond: { '720p': credits(0.084), '1080p': credits(0.112) },
    deadlineMs: 30 * MINUTE,
  },
  'seedance-2': {
    id: 'seedance-2',
    provider: 'byteplus',
    ownedBy: 'bytedance',
    durations: range(4, 15),
    defaultDuration: 5,
    aspectRatios: ['16:9', '9:16', '1:1', '4:3', '3:4', '21:9', 'adaptive'],
    defaultAspectRatio: '16:9',
    resolutions: ['480p', '720p', '1080p'],
    defaultResolution: '720p',
    imageInput: 'optional',
    lastFrame: true,
    generateAudio: true,
    seed: true,
    negativePrompt: false,
    maxPromptLength: 4000,
    imageTransport: 'url_or_inline',
    unitsPerSecond: { '480p': credits(0.05), '720p': credits(0.1), '1080p': credits(0.25) },
    deadlineMs: 30 * MINUTE,
    check: (p) => lastFrameNeedsImage('seedance-2', p),
  },
  'hailuo-2-3': {
    id: 'hailuo-2-3',
    provider: 'minimax',
    ownedBy: 'minimax',
    durations: [6, 10],
    defaultDuration: 6,
    aspectRatios: ['16:9'],
    defaultAspectRatio: '16:9',
    resolutions: ['768p', '1080p'],
    defaultResolution: '768p',
    imageInput: 'optional',
    lastFrame: false,
    generateAudio: false,
    seed: false,
    negativePrompt: false,
    maxPromptLength: 2000,
    imageTransport: 'url_or_inline',
    unitsPerSecond: { '768p': credits(0.045), '1080p': credits(0.08) },
    deadlineMs: 30 * MINUTE,
    check: (p) =>
      p.resolution === '1080p' && p.duration !== 6
        ? { param: 'duration', message: 'hailuo-2-3 renders 1080p only at duration 6' }
        : null,
  },
  'wan-2-6': {
    id: 'wan-2-6',
    provider: 'dashscope',
    ownedBy: 'alibaba',
    durations: [5, 10, 15],
    defaultDuration: 5,
    aspectRatios: ['16:9', '9:16', '1:1', '4:3', '3:4'],
    defaultAspectRatio: '16:9',
    resolutions: ['720p', '1080p'],
    defaultResolution: '720p',
    imageInput: 'optional',
    lastFrame: false,
    generateAudio: false,
    seed: true,
    negativePrompt: true,
    maxPromptLength: 4000,
    imageTransport: 'url_or_inline',
    unitsPerSecond: { '720p': credits(0.1), '1080p': credits(0.15) },
    deadlineMs: 30 * MINUTE,
  },
  'vidu-q2': {
    id: 'vidu-q2',
    provider: 'vidu',
    ownedBy: 'shengshu',
    durations: range(1, 10),
    defaultDuration: 5,
    aspectRatios: ['16:9', '9:16', '1:1', '3:4', '4:3'],
    defaultAspectRatio: '16:9',
    resolutions: ['540p', '720p', '1080p'],
    defaultResolution: '720p',
    imageInput: 'optional',
    lastFrame: true,
    generateAudio: false,
    seed: true,
    negativePrompt: false,
    maxPromptLength: 4000,
    imageTransport: 'url_or_inline',
    unitsPerSecond: { '540p': credits(0.03), '720p': credits(0.05), '1080p': credits(0.08) },
    deadlineMs: 30 * MINUTE,
    check: (p) => lastFrameNeedsImage('vidu-q2', p),
  },
  'runway-gen4-turbo': {
    id: 'runway-gen4-turbo',
    provider: 'runway',
    ownedBy: 'runway',
    durations: range(2, 10),
    defaultDuration: 5,
    aspectRatios: ['16:9', '9:16', '4:3', '3:4', '1:1', '21:9'],
    defaultAspectRatio: '16:9',
    resolutions: ['720p'],
    defaultResolution: '720p',
    imageInput: 'required',
    lastFrame: false,
    generateAudio: false,
    seed: true,
    negativePrompt: false,
    maxPromptLength: 1000,
    imageTransport: 'url_or_inline',
    unitsPerSecond: { '720p': credits(0.05) },
    deadlineMs: 20 * MINUTE,
  },
  'luma-ray-2': {
    id: 'luma-ray-2',
    provider: 'luma',
    ownedBy: 'luma',
    durations: [5, 9],
    defaultDuration: 5,
    aspectRatios: ['1:1', '16:9', '9:16', '4:3', '3:4', '21:9', '9:21'],
    defaultAspectRatio: '16:9',
    resolutions: ['540p', '720p', '1080p'],
    defaultResolution: '720p',
    imageInput: 'optional',
    lastFrame: true,
    generateAudio: false,
    seed: false,
    negativePrompt: false,
    maxPromptLength: 4000,
    imageTransport: 'url_only',
    unitsPerSecond: { '540p': credits(0.06), '720p': credits(0.12), '1080p': credits(0.27) },
    deadlineMs: 30 * MINUTE,
  },
};

export const VIDEO_MODEL_IDS = Object.keys(VIDEO_MODELS);

/** The capabilities object shown at GET /v1/models (credits per second at the API edge). */
export function videoCapabilities(spec: VideoModelSpec) {
  return {
    durations: spec.durations,
    default_duration: spec.defaultDuration,
    aspect_ratios: spec.aspectRatios,
    resolutions: spec.resolutions,
    default_resolution: spec.defaultResolution,
    image_input: spec.imageInput,
    last_frame: spec.lastFrame,
    generate_audio: spec.generateAudio,
    seed: spec.seed,
    negative_prompt: spec.negativePrompt,
    max_prompt_length: spec.maxPromptLength,
    price_per_second: Object.fromEntries(
      Object.entries(spec.unitsPerSecond).map(([res, units]) => [res, unitsToCredits(units)]),
    ),
  };
}

/**
 * The video models in GET /v1/models's shape, for the models route to merge in.
 *
 * @example
 * const data = [...textModels, ...videoModelList(created)];
 */
export function videoModelList(created = 1_767_225_600) {
  return Object.values(VIDEO_MODELS).map((spec) => ({
    id: spec.id,
    object: 'model' as const,
    created,
    owned_by: spec.ownedBy,
    type: 'video' as const,
    video: videoCapabilities(spec),
  }));
}
