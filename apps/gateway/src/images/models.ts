/**
 * The image models: what each accepts (shown at GET /v1/models, enforced before anything is
 * reserved) and what one image costs. OpenAI's own tables (docs/providers.md#12-openai-images);
 * prices in credits as OpenAI lists them in dollars (apps/gateway/README.md#images).
 */
import type { ImageModelCapabilities, ImageQuality, ImageSize } from '@modelgate/core';
import { unitsToCredits } from '../billing/billing.js';
import { credits } from '../providers/video/model-spec.js';

export interface ImageModelSpec {
  id: string;
  ownedBy: string;
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
  /**
   * Whether upstream is asked for `response_format: b64_json` (DALL·E, whose default is a URL that
   * expires). The GPT image models always answer base64 and refuse the field.
   */
  asksForBase64: boolean;
  /** Accepted `style` values; empty: `style` is refused. */
  styles: readonly ('vivid' | 'natural')[];
  /** Whether `background`, `output_format`, `output_compression` and `moderation` are accepted. */
  outputOptions: boolean;
  /** Quota units (1 credit = 1,000,000) of one image, by concrete quality, then concrete size. */
  unitsPerImage: Readonly<Record<string, Readonly<Record<string, number>>>>;
}

const GPT_IMAGE_SIZES = ['1024x1024', '1536x1024', '1024x1536'] as const;
const DALL_E_3_SIZES = ['1024x1024', '1792x1024', '1024x1792'] as const;

/** One quality's prices: the square size (listed first) at one price, the two wide ones at another. */
function squareThenWide(sizes: readonly [string, string, string], square: number, wide: number) {
  const [s, w, t] = sizes;
  return { [s]: credits(square), [w]: credits(wide), [t]: credits(wide) };
}

/**
 * The image models, all served by the OpenAI provider (`OPENAI_API_KEY`).
 *
 * @example
 * IMAGE_MODELS['dall-e-3']!.maxImages; // 1
 */
export const IMAGE_MODELS: Readonly<Record<string, ImageModelSpec>> = {
  'gpt-image-1': {
    id: 'gpt-image-1',
    ownedBy: 'openai',
    sizes: ['auto', ...GPT_IMAGE_SIZES],
    defaultSize: 'auto',
    qualities: ['auto', 'low', 'medium', 'high'],
    defaultQuality: 'auto',
    autoQuality: null,
    maxImages: 10,
    maxPromptLength: 32_000,
    defaultResponseFormat: 'b64_json',
    asksForBase64: false,
    styles: [],
    outputOptions: true,
    unitsPerImage: {
      low: squareThenWide(GPT_IMAGE_SIZES, 0.011, 0.016),
      medium: squareThenWide(GPT_IMAGE_SIZES, 0.042, 0.063),
      high: squareThenWide(GPT_IMAGE_SIZES, 0.167, 0.25),
    },
  },
  'dall-e-3': {
    id: 'dall-e-3',
    ownedBy: 'openai',
    sizes: [...DALL_E_3_SIZES],
    defaultSize: '1024x1024',
    qualities: ['auto', 'standard', 'hd'],
    defaultQuality: 'standard',
    autoQuality: 'standard',
    maxImages: 1,
    maxPromptLength: 4_000,
    defaultResponseFormat: 'url',
    asksForBase64: true,
    styles: ['vivid', 'natural'],
    outputOptions: false,
    unitsPerImage: {
      standard: squareThenWide(DALL_E_3_SIZES, 0.04, 0.08),
      hd: squareThenWide(DALL_E_3_SIZES, 0.08, 0.12),
    },
  },
  'dall-e-2': {
    id: 'dall-e-2',
    ownedBy: 'openai',
    sizes: ['256x256', '512x512', '1024x1024'],
    defaultSize: '1024x1024',
    qualities: ['auto', 'standard'],
    defaultQuality: 'standard',
    autoQuality: 'standard',
    maxImages: 10,
    maxPromptLength: 1_000,
    defaultResponseFormat: 'url',
    asksForBase64: true,
    styles: [],
    outputOptions: false,
    unitsPerImage: {
      standard: {
        '256x256': credits(0.016),
        '512x512': credits(0.018),
        '1024x1024': credits(0.02),
      },
    },
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
  };
}
