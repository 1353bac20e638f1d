/**
 * Pictures for the edit tests: input images drawn in code, and the checks that tell an edit
 * that kept its input's composition from a picture drawn afresh.
 */
import { createRaster, decodePng, type Raster, rasterToPng } from '@modelgate/provider-sim';
import { expect } from 'vitest';

export { decodePng };

/** Paints a rectangle of the raster. */
export function fill(
  raster: Raster,
  box: { x: number; y: number; w: number; h: number },
  rgba: readonly number[],
): void {
  for (let y = box.y; y < box.y + box.h; y++) {
    for (let x = box.x; x < box.x + box.w; x++) raster.pixels.set(rgba, (y * raster.width + x) * 4);
  }
}

/**
 * A `size`² PNG: white, with a black square in its top-left quarter (off centre, where no
 * generated picture has one); with `transparentRight`, its right half fully transparent.
 */
export function squarePng(size: number, options: { transparentRight?: boolean } = {}): Buffer {
  const raster = createRaster(size, size, [255, 255, 255, 255]);
  const q = size / 8;
  fill(raster, { x: q, y: q, w: 2 * q, h: 2 * q }, [0, 0, 0, 255]);
  if (options.transparentRight)
    fill(raster, { x: size / 2, y: 0, w: size / 2, h: size }, [0, 0, 0, 0]);
  return rasterToPng(raster, !options.transparentRight);
}

/** The RGBA of one pixel, at a position given as a fraction of the width and height. */
export function pixelAt(raster: Raster, fx: number, fy: number): number[] {
  const x = Math.floor(fx * raster.width);
  const y = Math.floor(fy * raster.height);
  return [...raster.pixels.subarray((y * raster.width + x) * 4, (y * raster.width + x) * 4 + 4)];
}

/**
 * The checks that an edit of {@link squarePng} is visibly that picture, changed: the black square
 * is still dark where it was, the white ground still light but no longer white (a tint), and the
 * prompt's words (white pixels) are drawn over the lower part.
 */
export function expectEditedSquare(png: Buffer): Raster {
  const raster = decodePng(png);
  expect(raster, 'a PNG the test can decode').not.toBeNull();
  const out = raster!;
  const square = pixelAt(out, 0.25, 0.25);
  const ground = pixelAt(out, 0.75, 0.4);
  expect(Math.max(...square.slice(0, 3)), `the square stays dark: ${square}`).toBeLessThan(110);
  expect(Math.max(...ground.slice(0, 3)), `the ground stays light: ${ground}`).toBeGreaterThan(150);
  expect(Math.min(...ground.slice(0, 3)), `the ground is tinted: ${ground}`).toBeLessThan(215);
  let white = 0;
  for (let y = Math.floor(out.height * 0.72); y < out.height; y++) {
    for (let x = 0; x < out.width; x++) {
      const i = (y * out.width + x) * 4;
      if (out.pixels[i] === 255 && out.pixels[i + 1] === 255 && out.pixels[i + 2] === 255) white++;
    }
  }
  expect(white, 'the words drawn over the lower part').toBeGreaterThan(out.width);
  return out;
}
