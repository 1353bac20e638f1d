// What a simulated image model makes of an input image: an edit keeps the input's composition and
// visibly changes it (a tint where it edits, and the prompt's words drawn over it), a variation
// keeps it too, mirrored or tinted differently per image. Deterministic: the same request makes
// the same picture.
import { hashString } from '../text/generate.js';
import { GLYPH_HEIGHT, GLYPH_WIDTH, glyph, wrapWords } from './font.js';
import { type Raster, resize } from './raster.js';

/** Where an edit draws. */
export type EditRegion =
  /** Everywhere (the GPT image models without a mask, and every model that takes no mask). */
  | { kind: 'all' }
  /** Where the mask (scaled to the picture) is fully transparent. */
  | { kind: 'mask'; mask: Raster }
  /** Where the input itself is transparent (`dall-e-2` without a mask). */
  | { kind: 'transparent' };

export interface EditSpec {
  width: number;
  height: number;
  prompt: string;
  /** Which image of `n` (each gets its own tint). */
  index: number;
  region: EditRegion;
}

/** A saturated colour from a hash: one channel high, one low, so a tint always shows. */
export function tintOf(seed: number): [number, number, number] {
  const hue = seed % 6;
  const mid = 64 + ((seed >>> 8) % 128);
  const table: [number, number, number][] = [
    [230, mid, 30],
    [mid, 230, 30],
    [30, 230, mid],
    [30, mid, 230],
    [mid, 30, 230],
    [230, 30, mid],
  ];
  return table[hue]!;
}

/** Share of the tint in an edited pixel. */
const TINT = 0.4;

function inRegion(region: EditRegion, picture: Raster, mask: Raster | null, i: number): boolean {
  if (region.kind === 'all') return true;
  if (region.kind === 'transparent') return picture.pixels[i + 3] === 0;
  return mask!.pixels[i + 3] === 0;
}

/** Tints the region in place; a transparent pixel in it is filled with the tint itself. */
function tint(picture: Raster, region: EditRegion, colour: readonly number[]): void {
  const mask = region.kind === 'mask' ? resize(region.mask, picture.width, picture.height) : null;
  const { pixels } = picture;
  for (let i = 0; i < pixels.length; i += 4) {
    if (inRegion(region, picture, mask, i)) {
      const alpha = pixels[i + 3]! / 255;
      for (let c = 0; c < 3; c++) {
        const under = pixels[i + c]! * alpha + colour[c]! * (1 - alpha);
        pixels[i + c] = Math.round(under * (1 - TINT) + colour[c]! * TINT);
      }
    }
    pixels[i + 3] = 255;
  }
}

/**
 * Draws `lines` of text, white on a darkened band across the lower part of the picture (from 72%
 * of its height down): the rest of the picture stays as it was.
 */
export function drawCaption(picture: Raster, text: string): void {
  const { width, height, pixels } = picture;
  const scale = Math.max(1, Math.floor(Math.min(width, height) / 128));
  const advance = (GLYPH_WIDTH + 1) * scale;
  const lineHeight = (GLYPH_HEIGHT + 2) * scale;
  const perLine = Math.max(1, Math.floor((width - 2 * scale) / advance));
  const bandTop = Math.floor(height * 0.72);
  const lines = wrapWords(text, perLine, Math.max(1, Math.floor((height - bandTop) / lineHeight)));
  const bandBottom = Math.min(height, bandTop + lines.length * lineHeight + scale);
  for (let y = bandTop; y < bandBottom; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      for (let c = 0; c < 3; c++) pixels[i + c] = Math.round(pixels[i + c]! * 0.35);
    }
  }
  for (const [row, line] of lines.entries()) {
    const left = Math.floor((width - line.length * advance) / 2);
    const top = bandTop + scale + row * lineHeight;
    for (const [col, char] of [...line].entries()) {
      const rows = glyph(char);
      for (let gy = 0; gy < GLYPH_HEIGHT; gy++) {
        for (let gx = 0; gx < GLYPH_WIDTH; gx++) {
          if (((rows[gy]! >> (GLYPH_WIDTH - 1 - gx)) & 1) === 0) continue;
          const x0 = left + col * advance + gx * scale;
          const y0 = top + gy * scale;
          for (let y = y0; y < Math.min(height, y0 + scale); y++) {
            for (let x = Math.max(0, x0); x < Math.min(width, x0 + scale); x++) {
              pixels.set([255, 255, 255, 255], (y * width + x) * 4);
            }
          }
        }
      }
    }
  }
}

/**
 * The edited picture: the input at the output size, tinted where the model edits, the prompt's
 * words drawn over its lower part.
 *
 * @example
 * const out = editPicture(input, { width: 1024, height: 1024, prompt: 'make it dusk', index: 0, region: { kind: 'all' } });
 */
export function editPicture(input: Raster, spec: EditSpec): Raster {
  const picture = resize(input, spec.width, spec.height);
  tint(picture, spec.region, tintOf(hashString(`${spec.index}\u0000${spec.prompt}`)));
  drawCaption(picture, spec.prompt);
  return picture;
}

/**
 * A stage of a streamed edit: the tinted picture without its words, coarser the earlier the stage
 * (blocks of 64, 32, 16 pixels for stages 0, 1, 2).
 */
export function partialPicture(input: Raster, spec: EditSpec, stage: number): Raster {
  const picture = resize(input, spec.width, spec.height);
  tint(picture, spec.region, tintOf(hashString(`${spec.index}\u0000${spec.prompt}`)));
  const block = 64 >> Math.min(stage, 3);
  const { width, height, pixels } = picture;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const s = (Math.floor(y / block) * block * width + Math.floor(x / block) * block) * 4;
      pixels.copyWithin((y * width + x) * 4, s, s + 4);
    }
  }
  return picture;
}

/**
 * A variation: the input at the output size, mirrored for every other image, tinted lightly by
 * the image's index.
 */
export function variationPicture(
  input: Raster,
  width: number,
  height: number,
  index: number,
): Raster {
  const picture = resize(input, width, height);
  const { pixels } = picture;
  if (index % 2 === 1) {
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width / 2; x++) {
        const a = (y * width + x) * 4;
        const b = (y * width + (width - 1 - x)) * 4;
        for (let c = 0; c < 4; c++) {
          const t = pixels[a + c]!;
          pixels[a + c] = pixels[b + c]!;
          pixels[b + c] = t;
        }
      }
    }
  }
  tint(picture, { kind: 'all' }, tintOf(hashString(`variation\u0000${index}`)));
  return picture;
}
