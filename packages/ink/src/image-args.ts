// `modelgate image`: the arguments, checked before any request is made.
import type { ImageQuality, ImageSize } from '@modelgate/core';
import type { OptionValues } from './cli-options.js';
import { positiveInteger } from './numbers.js';

/** What `modelgate image "<prompt>"` asked for. */
export interface ImageCommand {
  name: 'image';
  prompt: string;
  /** The image model; `undefined`: the first one `GET /v1/models` lists for the key. */
  model?: string;
  size?: ImageSize;
  quality?: ImageQuality;
  /** How many images (the model's `max_images` is the gateway's to check). */
  n?: number;
  /** Save the image(s) here too: `PATH` for one, `PATH-1`, `PATH-2`, … (before the extension) for more. */
  out?: string;
  /** Edit these images instead of generating: local files (uploaded first) or URLs. */
  images?: string[];
  /** The edit's mask: a local PNG (uploaded first) or a URL. */
  mask?: string;
}

const USAGE_LINE =
  'usage: modelgate image "<prompt>" [--model M] [--size S] [--quality Q] [--n N] [--out PATH] [--image FILE|URL]… [--mask FILE|URL]';

// Records, so that a value the spec adds or drops fails the type check. Which of them a given model
// takes is the gateway's to say: it answers 400 with the model's own list.
const SIZES: Record<ImageSize, true> = {
  auto: true,
  '256x256': true,
  '512x512': true,
  '1024x1024': true,
  '1536x1024': true,
  '1024x1536': true,
  '1792x1024': true,
  '1024x1792': true,
  '832x1248': true,
  '1248x832': true,
  '864x1184': true,
  '1184x864': true,
  '896x1152': true,
  '1152x896': true,
  '768x1344': true,
  '1344x768': true,
  '1536x672': true,
  '2048x2048': true,
  '2304x1728': true,
  '1728x2304': true,
  '2560x1440': true,
  '1440x2560': true,
  '2496x1664': true,
  '1664x2496': true,
  '3024x1296': true,
  '4096x4096': true,
};
const QUALITIES: Record<ImageQuality, true> = {
  auto: true,
  low: true,
  medium: true,
  high: true,
  standard: true,
  hd: true,
};

/**
 * Reads the words after `image` and the flags into an {@link ImageCommand}, or says what is wrong.
 *
 * @example
 * ```ts
 * imageCommand(['a', 'red', 'fox'], { size: '1024x1024', n: '2' });
 * // → { name: 'image', prompt: 'a red fox', size: '1024x1024', n: 2 }
 * ```
 */
export function imageCommand(
  rest: string[],
  values: OptionValues,
): ImageCommand | { message: string } {
  // Unquoted words are joined, as for `chat`.
  const prompt = rest.join(' ').trim();
  if (prompt === '') return { message: USAGE_LINE };
  const command: ImageCommand = { name: 'image', prompt };
  if (values.model !== undefined) command.model = values.model;
  if (values.out !== undefined) {
    if (values.out.trim() === '') return { message: '--out must name a file' };
    command.out = values.out;
  }
  if (values.size !== undefined) {
    if (!isSize(values.size)) return { message: `--size must be one of ${keys(SIZES)}` };
    command.size = values.size;
  }
  if (values.quality !== undefined) {
    if (!isQuality(values.quality))
      return { message: `--quality must be one of ${keys(QUALITIES)}` };
    command.quality = values.quality;
  }
  if (values.n !== undefined) {
    const n = positiveInteger(values.n);
    if (n === undefined) return { message: '--n must be a positive whole number' };
    command.n = n;
  }
  if (values.image !== undefined) command.images = values.image;
  if (values.mask !== undefined) {
    if (command.images === undefined)
      return { message: '--mask needs --image (the image to edit)' };
    command.mask = values.mask;
  }
  return command;
}

function isSize(text: string): text is ImageSize {
  return Object.hasOwn(SIZES, text);
}

function isQuality(text: string): text is ImageQuality {
  return Object.hasOwn(QUALITIES, text);
}

function keys(table: Record<string, true>): string {
  return Object.keys(table).join(', ');
}
