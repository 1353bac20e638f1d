// The picture a simulated image model draws: two colours taken from a hash of the prompt and the
// image's index (so the same request draws the same image, and each of `n` images differs), a
// background with a centred square, encoded in the requested format. Cached, since clients ask
// for the same prompt again and again.
import { hashString } from '../text/generate.js';
import { encodeFlatJpeg } from './jpeg.js';
import { encodePng } from './png.js';
import { encodeFlatWebp } from './webp.js';

export type ImageFormat = 'png' | 'jpeg' | 'webp';

export interface PictureSpec {
  /** From {@link pictureSeed}. */
  seed: number;
  width: number;
  height: number;
  format: ImageFormat;
  /** The background is transparent (PNG and WebP only). */
  transparent: boolean;
}

const MAX_CACHED = 64;
const cache = new Map<string, Buffer>();

/** The seed of the `index`-th image drawn for `prompt`. */
export function pictureSeed(prompt: string, index: number): number {
  return hashString(`${index}\u0000${prompt}`);
}

/** Background and foreground RGB from the seed's bytes. */
function colours(seed: number): [Uint8Array, Uint8Array] {
  const background = new Uint8Array([seed & 0xff, (seed >>> 8) & 0xff, (seed >>> 16) & 0xff]);
  const foreground = background.map((c) => 255 - c);
  return [background, foreground];
}

/** The PNG: the square in the middle third of each side, on an opaque or transparent ground. */
function drawPng(spec: PictureSpec): Buffer {
  const [background, foreground] = colours(spec.seed);
  const channels = spec.transparent ? 4 : 3;
  const pixel = (rgb: Uint8Array, alpha: number) =>
    channels === 4 ? new Uint8Array([...rgb, alpha]) : rgb;
  const plain = new Uint8Array(spec.width * channels);
  const crossed = new Uint8Array(spec.width * channels);
  const [left, right] = [Math.floor(spec.width / 3), Math.ceil((2 * spec.width) / 3)];
  for (let x = 0; x < spec.width; x++) {
    plain.set(pixel(background, 0), x * channels);
    const inside = x >= left && x < right;
    crossed.set(inside ? pixel(foreground, 255) : pixel(background, 0), x * channels);
  }
  const [top, bottom] = [Math.floor(spec.height / 3), Math.ceil((2 * spec.height) / 3)];
  return encodePng(spec.width, spec.height, channels, (y) =>
    y >= top && y < bottom ? crossed : plain,
  );
}

function draw(spec: PictureSpec): Buffer {
  const [background] = colours(spec.seed);
  const [r = 0, g = 0, b = 0] = background;
  if (spec.format === 'jpeg') {
    return encodeFlatJpeg(spec.width, spec.height, 0.299 * r + 0.587 * g + 0.114 * b);
  }
  if (spec.format === 'webp') {
    return encodeFlatWebp(spec.width, spec.height, [r, g, b, spec.transparent ? 0 : 255]);
  }
  return drawPng(spec);
}

/**
 * The image's bytes.
 *
 * @example
 * renderPicture({ seed: pictureSeed('a cat', 0), width: 1024, height: 1024, format: 'png', transparent: false });
 */
export function renderPicture(spec: PictureSpec): Buffer {
  const key = `${spec.seed}/${spec.width}x${spec.height}/${spec.format}/${spec.transparent}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const bytes = draw(spec);
  if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value as string);
  cache.set(key, bytes);
  return bytes;
}
