/**
 * An image's width, height and whether it has an alpha channel, read from its header (no pixel
 * is decoded): what an edit's rules need (a square image, a mask the image's size, transparency).
 *
 * @example
 * imageInfo(png, { mime: 'image/png', ext: 'png' }); // { width: 512, height: 512, alpha: true }
 */
import type { ImageType } from './sniff.js';

export interface ImageInfo {
  width: number;
  height: number;
  alpha: boolean;
}

/** PNG: IHDR comes first; colour types 4 and 6 carry alpha, and a tRNS chunk adds it to others. */
function png(bytes: Buffer): ImageInfo | null {
  if (bytes.length < 33 || bytes.toString('latin1', 12, 16) !== 'IHDR') return null;
  const colourType = bytes[25]!;
  let alpha = colourType === 4 || colourType === 6;
  for (let at = 8; !alpha && at + 8 <= bytes.length; ) {
    const length = bytes.readUInt32BE(at);
    const type = bytes.toString('latin1', at + 4, at + 8);
    if (type === 'IDAT' || type === 'IEND') break;
    if (type === 'tRNS') alpha = true;
    at += 12 + length;
  }
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20), alpha };
}

/** JPEG: the first start-of-frame marker (any but DHT, JPG and DAC, which share the range). */
function jpeg(bytes: Buffer): ImageInfo | null {
  let at = 2;
  while (at + 9 <= bytes.length) {
    if (bytes[at] !== 0xff) return null;
    const marker = bytes[at + 1]!;
    if (marker === 0xff) {
      at += 1;
      continue;
    }
    const length = bytes.readUInt16BE(at + 2);
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return {
        height: bytes.readUInt16BE(at + 5),
        width: bytes.readUInt16BE(at + 7),
        alpha: false,
      };
    }
    at += 2 + length;
  }
  return null;
}

/** WebP: lossy (`VP8 `), lossless (`VP8L`) or extended (`VP8X`) first chunk. */
function webp(bytes: Buffer): ImageInfo | null {
  if (bytes.length < 30) return null;
  const chunk = bytes.toString('latin1', 12, 16);
  if (chunk === 'VP8 ') {
    return {
      width: bytes.readUInt16LE(26) & 0x3fff,
      height: bytes.readUInt16LE(28) & 0x3fff,
      alpha: false,
    };
  }
  if (chunk === 'VP8L') {
    const bits = bytes.readUInt32LE(21);
    return {
      width: (bits & 0x3fff) + 1,
      height: ((bits >>> 14) & 0x3fff) + 1,
      alpha: ((bits >>> 28) & 1) === 1,
    };
  }
  if (chunk === 'VP8X') {
    return {
      width: bytes.readUIntLE(24, 3) + 1,
      height: bytes.readUIntLE(27, 3) + 1,
      alpha: (bytes[20]! & 0x10) !== 0,
    };
  }
  return null;
}

function gif(bytes: Buffer): ImageInfo | null {
  if (bytes.length < 10) return null;
  return { width: bytes.readUInt16LE(6), height: bytes.readUInt16LE(8), alpha: false };
}

/** The header's figures, or null when the header is cut short or malformed. */
export function imageInfo(bytes: Buffer, type: ImageType): ImageInfo | null {
  try {
    if (type.ext === 'png') return png(bytes);
    if (type.ext === 'jpg') return jpeg(bytes);
    if (type.ext === 'webp') return webp(bytes);
    return gif(bytes);
  } catch {
    return null;
  }
}
