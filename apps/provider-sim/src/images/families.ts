// What each OpenAI image model takes (docs/providers.md#12-openai-images): the GPT image models
// (`gpt-image-1` and its siblings), `dall-e-3` and `dall-e-2`. The simulator checks a request
// against its model's family as the real API does.

export type FamilyName = 'gpt-image' | 'dall-e-3' | 'dall-e-2';

export interface ImageFamily {
  name: FamilyName;
  /** Accepted `size` values; the first is the default. */
  sizes: readonly string[];
  /** Accepted `quality` values; the first is the default. */
  qualities: readonly string[];
  maxN: number;
  maxPromptLength: number;
  /** Body fields besides model, prompt, n, size, quality and user. */
  extraFields: readonly string[];
}

const GPT_IMAGE_SIZES = ['auto', '1024x1024', '1536x1024', '1024x1536'];

export const FAMILIES: Record<FamilyName, ImageFamily> = {
  'gpt-image': {
    name: 'gpt-image',
    sizes: GPT_IMAGE_SIZES,
    qualities: ['auto', 'low', 'medium', 'high'],
    maxN: 10,
    maxPromptLength: 32_000,
    extraFields: [
      'background',
      'output_format',
      'output_compression',
      'moderation',
      'stream',
      'partial_images',
    ],
  },
  'dall-e-3': {
    name: 'dall-e-3',
    sizes: ['1024x1024', '1792x1024', '1024x1792'],
    qualities: ['standard', 'hd', 'auto'],
    maxN: 1,
    maxPromptLength: 4_000,
    extraFields: ['response_format', 'style'],
  },
  'dall-e-2': {
    name: 'dall-e-2',
    sizes: ['1024x1024', '256x256', '512x512'],
    qualities: ['standard', 'auto'],
    maxN: 10,
    maxPromptLength: 1_000,
    extraFields: ['response_format'],
  },
};

/** The family of a model id, or null when it is not an image model. Absent = `dall-e-2`, as upstream. */
export function familyOf(model: string | undefined): ImageFamily | null {
  if (model === undefined || model === 'dall-e-2') return FAMILIES['dall-e-2'];
  if (model === 'dall-e-3') return FAMILIES['dall-e-3'];
  if (model.startsWith('gpt-image-') || model === 'chatgpt-image-latest') {
    return FAMILIES['gpt-image'];
  }
  return null;
}

/**
 * Output tokens of one GPT image by quality and size (OpenAI's published table for gpt-image-1),
 * what `usage.output_tokens` adds up.
 */
export const GPT_IMAGE_OUTPUT_TOKENS: Record<string, Record<string, number>> = {
  low: { '1024x1024': 272, '1024x1536': 408, '1536x1024': 400 },
  medium: { '1024x1024': 1056, '1024x1536': 1584, '1536x1024': 1568 },
  high: { '1024x1024': 4160, '1024x1536': 6240, '1536x1024': 6208 },
};

/** What `auto` becomes in the simulator (a real model decides per prompt). */
export const GPT_IMAGE_AUTO = { size: '1024x1024', quality: 'medium' } as const;
