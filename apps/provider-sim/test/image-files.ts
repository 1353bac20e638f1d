// Readers for the image files the simulator draws, enough to check them without an image library:
// a PNG is decoded to its pixels (chunks, CRCs, zlib, filter type 0), a JPEG and a WebP are read
// up to their dimensions.
import { crc32, inflateSync } from 'node:zlib';

export interface DecodedPng {
  width: number;
  height: number;
  /** 3 (RGB) or 4 (RGBA). */
  channels: number;
  /** The pixel at (x, y), one number per channel. */
  pixel(x: number, y: number): number[];
}

/** Decodes an 8-bit RGB(A) PNG with unfiltered rows; throws on a bad signature or CRC. */
export function decodePng(bytes: Buffer): DecodedPng {
  if (bytes.subarray(0, 8).toString('hex') !== '89504e470d0a1a0a') throw new Error('not a PNG');
  const chunks = new Map<string, Buffer[]>();
  for (let at = 8; at < bytes.length; ) {
    const length = bytes.readUInt32BE(at);
    const type = bytes.subarray(at + 4, at + 8).toString('latin1');
    const data = bytes.subarray(at + 8, at + 8 + length);
    const crc = bytes.readUInt32BE(at + 8 + length);
    if (crc !== crc32(bytes.subarray(at + 4, at + 8 + length)))
      throw new Error(`bad CRC in ${type}`);
    chunks.set(type, [...(chunks.get(type) ?? []), data]);
    at += 12 + length;
  }
  const ihdr = chunks.get('IHDR')![0]!;
  const [width, height] = [ihdr.readUInt32BE(0), ihdr.readUInt32BE(4)];
  const channels = ihdr[9] === 6 ? 4 : 3;
  const raw = inflateSync(Buffer.concat(chunks.get('IDAT')!));
  const stride = 1 + width * channels;
  if (raw.length !== stride * height) throw new Error('IDAT has the wrong size');
  return {
    width,
    height,
    channels,
    pixel(x, y) {
      if (raw[y * stride] !== 0) throw new Error('unexpected row filter');
      const at = y * stride + 1 + x * channels;
      return [...raw.subarray(at, at + channels)];
    },
  };
}

/** The frame size of a baseline JPEG (its SOF0 segment); throws if SOI or EOI are missing. */
export function jpegSize(bytes: Buffer): { width: number; height: number } {
  if (bytes.readUInt16BE(0) !== 0xffd8 || bytes.readUInt16BE(bytes.length - 2) !== 0xffd9) {
    throw new Error('not a complete JPEG');
  }
  for (let at = 2; at < bytes.length; ) {
    const marker = bytes.readUInt16BE(at);
    if (marker === 0xffc0) {
      return { height: bytes.readUInt16BE(at + 5), width: bytes.readUInt16BE(at + 7) };
    }
    at += 2 + bytes.readUInt16BE(at + 2);
  }
  throw new Error('no SOF0');
}

/** The canvas size of a lossless WebP (RIFF "WEBP", a VP8L chunk). */
export function webpSize(bytes: Buffer): { width: number; height: number; alpha: boolean } {
  const riff = bytes.subarray(0, 4).toString('latin1');
  const kind = bytes.subarray(8, 16).toString('latin1');
  if (riff !== 'RIFF' || kind !== 'WEBPVP8L' || bytes[20] !== 0x2f) throw new Error('not VP8L');
  if (bytes.readUInt32LE(4) !== bytes.length - 8) throw new Error('bad RIFF size');
  const bits = bytes.readUInt32LE(21);
  return {
    width: (bits & 0x3fff) + 1,
    height: ((bits >>> 14) & 0x3fff) + 1,
    alpha: ((bits >>> 28) & 1) === 1,
  };
}
