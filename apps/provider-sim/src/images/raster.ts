// Pictures as pixels: an RGBA raster, and PNG in and out of it. Edits and variations start from
// the caller's image (decoded here), change it, and encode the result again; video first frames
// start from the same decoded picture. Only PNG is decoded (8-bit, not interlaced, every colour
// type): what a test or a person draws and uploads; other types are drawn afresh by the callers.
import { inflateSync } from 'node:zlib';
import { encodePng } from './png.js';

/** `width` × `height` pixels, 4 bytes each (R, G, B, A), row after row. */
export interface Raster {
  width: number;
  height: number;
  pixels: Uint8Array;
}

const SIGNATURE = '89504e470d0a1a0a';

export function createRaster(width: number, height: number, rgba: readonly number[]): Raster {
  const pixels = new Uint8Array(width * height * 4);
  for (let i = 0; i < pixels.length; i += 4) pixels.set(rgba, i);
  return { width, height, pixels };
}

/** The Paeth predictor of PNG filter type 4. */
function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  if (pa <= pb && pa <= pc) return a;
  return pb <= pc ? b : c;
}

/** Undoes the per-row filters in place; `bpp` bytes per pixel, `stride` bytes per row. */
function unfilter(data: Buffer, height: number, stride: number, bpp: number): Uint8Array {
  const out = new Uint8Array(height * stride);
  for (let y = 0; y < height; y++) {
    const type = data[y * (stride + 1)]!;
    const row = data.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    const at = y * stride;
    for (let x = 0; x < stride; x++) {
      const a = x >= bpp ? out[at + x - bpp]! : 0;
      const b = y > 0 ? out[at - stride + x]! : 0;
      const c = x >= bpp && y > 0 ? out[at - stride + x - bpp]! : 0;
      const raw = row[x]!;
      const value =
        type === 1
          ? raw + a
          : type === 2
            ? raw + b
            : type === 3
              ? raw + ((a + b) >> 1)
              : type === 4
                ? raw + paeth(a, b, c)
                : raw;
      out[at + x] = value & 0xff;
    }
  }
  return out;
}

const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };

/**
 * Decodes an 8-bit, non-interlaced PNG; null for anything else (another type, a broken file).
 *
 * @example
 * decodePng(encodePng(1, 1, 3, () => new Uint8Array([255, 0, 0])))?.pixels; // [255, 0, 0, 255]
 */
export function decodePng(bytes: Buffer): Raster | null {
  if (bytes.length < 33 || bytes.subarray(0, 8).toString('hex') !== SIGNATURE) return null;
  let width = 0;
  let height = 0;
  let colourType = 0;
  let palette: Buffer | null = null;
  let transparency: Buffer | null = null;
  const idat: Buffer[] = [];
  for (let at = 8; at + 8 <= bytes.length; ) {
    const length = bytes.readUInt32BE(at);
    const type = bytes.toString('latin1', at + 4, at + 8);
    const data = bytes.subarray(at + 8, at + 8 + length);
    if (type === 'IHDR') {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      colourType = data[9]!;
      if (data[8] !== 8 || data[12] !== 0 || CHANNELS[colourType] === undefined) return null;
    } else if (type === 'PLTE') palette = data;
    else if (type === 'tRNS') transparency = data;
    else if (type === 'IDAT') idat.push(data);
    else if (type === 'IEND') break;
    at += 12 + length;
  }
  if (width === 0 || height === 0 || width * height > 64_000_000) return null;
  const channels = CHANNELS[colourType]!;
  let raw: Uint8Array;
  try {
    raw = unfilter(inflateSync(Buffer.concat(idat)), height, width * channels, channels);
  } catch {
    return null;
  }
  const pixels = new Uint8Array(width * height * 4);
  for (let i = 0; i < width * height; i++) {
    const s = i * channels;
    const d = i * 4;
    if (colourType === 3) {
      const index = raw[s]!;
      pixels[d] = palette?.[index * 3] ?? 0;
      pixels[d + 1] = palette?.[index * 3 + 1] ?? 0;
      pixels[d + 2] = palette?.[index * 3 + 2] ?? 0;
      pixels[d + 3] = transparency?.[index] ?? 255;
    } else if (colourType === 0 || colourType === 4) {
      pixels.fill(raw[s]!, d, d + 3);
      pixels[d + 3] = colourType === 4 ? raw[s + 1]! : 255;
    } else {
      pixels[d] = raw[s]!;
      pixels[d + 1] = raw[s + 1]!;
      pixels[d + 2] = raw[s + 2]!;
      pixels[d + 3] = colourType === 6 ? raw[s + 3]! : 255;
    }
  }
  return { width, height, pixels };
}

/** The raster scaled to `width` × `height` (nearest neighbour: sharp edges stay sharp). */
export function resize(source: Raster, width: number, height: number): Raster {
  if (source.width === width && source.height === height) {
    return { width, height, pixels: new Uint8Array(source.pixels) };
  }
  const pixels = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    const sy = Math.min(source.height - 1, Math.floor((y * source.height) / height));
    for (let x = 0; x < width; x++) {
      const sx = Math.min(source.width - 1, Math.floor((x * source.width) / width));
      const s = (sy * source.width + sx) * 4;
      pixels.set(source.pixels.subarray(s, s + 4), (y * width + x) * 4);
    }
  }
  return { width, height, pixels };
}

/** Encodes the raster as an RGBA PNG, or RGB when `opaque`. */
export function rasterToPng(raster: Raster, opaque: boolean): Buffer {
  const { width, pixels } = raster;
  const channels = opaque ? 3 : 4;
  const row = new Uint8Array(width * channels);
  return encodePng(width, raster.height, channels, (y) => {
    for (let x = 0; x < width; x++) {
      const s = (y * width + x) * 4;
      row[x * channels] = pixels[s]!;
      row[x * channels + 1] = pixels[s + 1]!;
      row[x * channels + 2] = pixels[s + 2]!;
      if (!opaque) row[x * channels + 3] = pixels[s + 3]!;
    }
    return row;
  });
}
