/**
 * The image models: which provider serves each, what each accepts (shown at GET /v1/models,
 * enforced before anything is reserved) and what one image costs. The providers' own tables are
 * in docs/providers.md (§12 OpenAI, §13 Gemini, §14 Seedream, §15 FLUX); prices in credits as the
 * providers list them in dollars (apps/gateway/README.md#images).
 */
import type { ImageModelCapabilities, ImageQuality, ImageSize } from '@modelgate/core';
import { credits, unitsToCredits } from '../billing/billing.js';
import type { ImageType } from '../files/index.js';
import type { ImageOperation } from '../providers/image/types.js';

/** The providers of image models, by their names in config.providers. */
export type ImageProviderName = 'openai' | 'gemini' | 'byteplus' | 'bfl';

/** What the input images of an edit (or a variation) may be. */
export interface ImageInputRules {
  /** Most input images; 0 when the model takes none. */
  maxImages: number;
  /** Types it takes, by content. */
  types: readonly ImageType['ext'][];
  /** Largest image in bytes; null: the gateway's upload limit. */
  maxBytes: number | null;
  /** Whether each image must be square (`dall-e-2`). */
  square: boolean;
  /** Whether `mask` is taken. */
  mask: boolean;
  /** Whether the image (or the mask) must have an alpha channel: where it draws (`dall-e-2`). */
  needsAlpha: boolean;
  /** Whether an edit may be streamed. */
  stream: boolean;
  /** Whether `input_fidelity` is taken. */
  fidelity: boolean;
}

export interface ImageModelSpec {
  id: string;
  ownedBy: string;
  provider: ImageProviderName;
  /** The upstream's name for it. */
  upstreamModel: string;
  operations: readonly ImageOperation[];
  /** Accepted `size` values, `auto` included where the model chooses. */
  sizes: readonly ImageSize[];
  defaultSize: ImageSize;
  /** Accepted `quality` values. */
  qualities: readonly ImageQuality[];
  defaultQuality: ImageQuality;
  /** What `auto` quality is for a model that does not choose itself (DALL·E: `standard`). */
  autoQuality: ImageQuality | null;
  maxImages: number;
  maxPromptLength: number;
  defaultResponseFormat: 'url' | 'b64_json';
  /** Accepted `style` values; empty: `style` is refused. */
  styles: readonly ('vivid' | 'natural')[];
  /** Whether `background`, `output_format`, `output_compression` and `moderation` are accepted. */
  outputOptions: boolean;
  /** Edits and variations: what the input images may be. */
  input: ImageInputRules;
  /** Quota units (1 credit = 1,000,000) of one image, by concrete quality, then concrete size. */
  unitsPerImage: Readonly<Record<string, Readonly<Record<string, number>>>>;
}

const GPT_IMAGE_SIZES = ['1024x1024', '1536x1024', '1024x1536'] as const;
const DALL_E_3_SIZES = ['1024x1024', '1792x1024', '1024x1792'] as const;
/** Gemini's ten aspect ratios at its one resolution (1:1, 2:3, 3:2, 3:4, 4:3, 4:5, 5:4, 9:16, 16:9, 21:9). */
const GEMINI_SIZES = [
  '1024x1024',
  '832x1248',
  '1248x832',
  '864x1184',
  '1184x864',
  '896x1152',
  '1152x896',
  '768x1344',
  '1344x768',
  '1536x672',
] as const;
/** Seedream 4.0's recommended 2K sizes per aspect ratio, and its 1K and 4K squares. */
const SEEDREAM_SIZES = [
  '1024x1024',
  '2048x2048',
  '2304x1728',
  '1728x2304',
  '2560x1440',
  '1440x2560',
  '2496x1664',
  '1664x2496',
  '3024x1296',
  '4096x4096',
] as const;
/** FLUX Kontext draws about a megapixel at an aspect ratio from 21:9 to 9:21. */
const KONTEXT_SIZES = GEMINI_SIZES;

/** One quality's prices: the square size (listed first) at one price, the two wide ones at another. */
function squareThenWide(sizes: readonly [string, string, string], square: number, wide: number) {
  const [s, w, t] = sizes;
  return { [s]: credits(square), [w]: credits(wide), [t]: credits(wide) };
}

/** One price for every size. */
function flat(sizes: readonly string[], price: number): Record<string, number> {
  return Object.fromEntries(sizes.map((size) => [size, credits(price)]));
}

const MIB = 1024 * 1024;

/** No input images: the model only generates. */
const NO_INPUT: ImageInputRules = {
  maxImages: 0,
  types: [],
  maxBytes: null,
  square: false,
  mask: false,
  needsAlpha: false,
  stream: false,
  fidelity: false,
};

/** Input images of the models that edit without a mask. */
function inputs(maxImages: number, types: readonly ImageType['ext'][]): ImageInputRules {
  return { ...NO_INPUT, maxImages, types };
}

/**
 * The image models.
 *
 * @example
 * IMAGE_MODELS['dall-e-3']!.maxImages; // 1
 */
export const IMAGE_MODELS: Readonly<Record<string, ImageModelSpec>> = {
  'gpt-image-1': {
    id: 'gpt-image-1',
    ownedBy: 'openai',
    provider: 'openai',
    upstreamModel: 'gpt-image-1',
    operations: ['generate', 'edit'],
    sizes: ['auto', ...GPT_IMAGE_SIZES],
    defaultSize: 'auto',
    qualities: ['auto', 'low', 'medium', 'high'],
    defaultQuality: 'auto',
    autoQuality: null,
    maxImages: 10,
    maxPromptLength: 32_000,
    defaultResponseFormat: 'b64_json',
    styles: [],
    outputOptions: true,
    input: {
      ...inputs(16, ['png', 'jpg', 'webp']),
      maxBytes: 50 * MIB,
      mask: true,
      stream: true,
      fidelity: true,
    },
    unitsPerImage: {
      low: squareThenWide(GPT_IMAGE_SIZES, 0.011, 0.016),
      medium: squareThenWide(GPT_IMAGE_SIZES, 0.042, 0.063),
      high: squareThenWide(GPT_IMAGE_SIZES, 0.167, 0.25),
    },
  },
  'dall-e-3': {
    id: 'dall-e-3',
    ownedBy: 'openai',
    provider: 'openai',
    upstreamModel: 'dall-e-3',
    operations: ['generate'],
    sizes: [...DALL_E_3_SIZES],
    defaultSize: '1024x1024',
    qualities: ['auto', 'standard', 'hd'],
    defaultQuality: 'standard',
    autoQuality: 'standard',
    maxImages: 1,
    maxPromptLength: 4_000,
    defaultResponseFormat: 'url',
    styles: ['vivid', 'natural'],
    outputOptions: false,
    input: NO_INPUT,
    unitsPerImage: {
      standard: squareThenWide(DALL_E_3_SIZES, 0.04, 0.08),
      hd: squareThenWide(DALL_E_3_SIZES, 0.08, 0.12),
    },
  },
  'dall-e-2': {
    id: 'dall-e-2',
    ownedBy: 'openai',
    provider: 'openai',
    upstreamModel: 'dall-e-2',
    operations: ['generate', 'edit', 'variation'],
    sizes: ['256x256', '512x512', '1024x1024'],
    defaultSize: '1024x1024',
    qualities: ['auto', 'standard'],
    defaultQuality: 'standard',
    autoQuality: 'standard',
    maxImages: 10,
    maxPromptLength: 1_000,
    defaultResponseFormat: 'url',
    styles: [],
    outputOptions: false,
    input: { ...inputs(1, ['png']), maxBytes: 4 * MIB, square: true, mask: true, needsAlpha: true },
    unitsPerImage: {
      standard: {
        '256x256': credits(0.016),
        '512x512': credits(0.018),
        '1024x1024': credits(0.02),
      },
    },
  },
  'gemini-2.5-flash-image': {
    id: 'gemini-2.5-flash-image',
    ownedBy: 'google',
    provider: 'gemini',
    upstreamModel: 'gemini-2.5-flash-image',
    operations: ['generate', 'edit'],
    sizes: ['auto', ...GEMINI_SIZES],
    defaultSize: 'auto',
    qualities: ['auto', 'standard'],
    defaultQuality: 'standard',
    autoQuality: 'standard',
    maxImages: 1,
    maxPromptLength: 32_000,
    defaultResponseFormat: 'url',
    styles: [],
    outputOptions: false,
    input: { ...inputs(3, ['png', 'jpg', 'webp']), maxBytes: 7 * MIB },
    // 1,290 output tokens an image at $30 per million.
    unitsPerImage: { standard: flat(GEMINI_SIZES, 0.039) },
  },
  'seedream-4-0': {
    id: 'seedream-4-0',
    ownedBy: 'bytedance',
    provider: 'byteplus',
    upstreamModel: 'seedream-4-0-250828',
    operations: ['generate', 'edit'],
    sizes: ['auto', ...SEEDREAM_SIZES],
    defaultSize: 'auto',
    qualities: ['auto', 'standard'],
    defaultQuality: 'standard',
    autoQuality: 'standard',
    maxImages: 4,
    maxPromptLength: 4_000,
    defaultResponseFormat: 'url',
    styles: [],
    outputOptions: false,
    input: { ...inputs(10, ['png', 'jpg', 'webp']), maxBytes: 10 * MIB },
    unitsPerImage: { standard: flat(SEEDREAM_SIZES, 0.03) },
  },
  'flux-kontext-pro': {
    id: 'flux-kontext-pro',
    ownedBy: 'black-forest-labs',
    provider: 'bfl',
    upstreamModel: 'flux-kontext-pro',
    operations: ['generate', 'edit'],
    sizes: ['auto', ...KONTEXT_SIZES],
    defaultSize: 'auto',
    qualities: ['auto', 'standard'],
    defaultQuality: 'standard',
    autoQuality: 'standard',
    maxImages: 1,
    maxPromptLength: 4_000,
    defaultResponseFormat: 'url',
    styles: [],
    outputOptions: false,
    input: { ...inputs(4, ['png', 'jpg', 'webp']), maxBytes: 20 * MIB },
    unitsPerImage: { standard: flat(KONTEXT_SIZES, 0.04) },
  },
};

/** The image model ids: never resolved as text models, even in pass-through mode. */
export const IMAGE_MODEL_IDS: ReadonlySet<string> = new Set(Object.keys(IMAGE_MODELS));

/** The capabilities object of GET /v1/models (credits per image at the API edge). */
export function imageCapabilities(spec: ImageModelSpec): ImageModelCapabilities {
  const pricePerImage: Record<string, Record<string, number>> = {};
  for (const [quality, sizes] of Object.entries(spec.unitsPerImage)) {
    pricePerImage[quality] = Object.fromEntries(
      Object.entries(sizes).map(([size, units]) => [size, unitsToCredits(units)]),
    );
  }
  return {
    sizes: [...spec.sizes],
    default_size: spec.defaultSize,
    qualities: [...spec.qualities],
    default_quality: spec.defaultQuality,
    max_images: spec.maxImages,
    max_prompt_length: spec.maxPromptLength,
    default_response_format: spec.defaultResponseFormat,
    styles: [...spec.styles],
    output_options: spec.outputOptions,
    price_per_image: pricePerImage,
    operations: [...spec.operations],
    max_input_images: spec.operations.includes('edit') ? spec.input.maxImages : 0,
    mask: spec.input.mask,
    stream: spec.input.stream,
  };
}
