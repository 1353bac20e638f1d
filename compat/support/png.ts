/**
 * PNG in and out, enough for the image tests to draw an input and read an answer's pixels without
 * an image library: RGBA written with filter 0, and 8-bit RGB or RGBA read back (filter 0, which
 * is what the simulator writes).
 *
 * @example
 * const png = encodePng(64, 64, (x, y) => [255, 255, 255, 255]);
 * decodePng(png).pixel(0, 0); // [255, 255, 255, 255]
 */
import { crc32, deflateSync, inflateSync } from 'node:zlib';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

export type Rgba = [number, number, number, number];

export function encodePng(width: number, height: number, pixel: (x: number, y: number) => Rgba) {
  const stride = 1 + width * 4;
  const raw = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) raw.set(pixel(x, y), y * stride + 1 + x * 4);
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8;
  ihdr[9] = 6;
  return Buffer.concat([
    SIGNATURE,
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

export interface Picture {
  width: number;
  height: number;
  /** The RGB(A) of a pixel. */
  pixel(x: number, y: number): number[];
  /** The pixel at fractions of the width and height. */
  at(fx: number, fy: number): number[];
}

export function decodePng(bytes: Buffer): Picture {
  if (!bytes.subarray(0, 8).equals(SIGNATURE)) throw new Error('not a PNG');
  let width = 0;
  let height = 0;
  let channels = 0;
  const idat: Buffer[] = [];
  for (let at = 8; at < bytes.length; ) {
    const length = bytes.readUInt32BE(at);
    const type = bytes.toString('latin1', at + 4, at + 8);
    const data = bytes.subarray(at + 8, at + 8 + length);
    if (type === 'IHDR') {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      channels = data[9] === 6 ? 4 : data[9] === 2 ? 3 : 0;
    }
    if (type === 'IDAT') idat.push(data);
    at += 12 + length;
  }
  if (channels === 0) throw new Error('only 8-bit RGB and RGBA are read here');
  const raw = inflateSync(Buffer.concat(idat));
  const stride = 1 + width * channels;
  for (let y = 0; y < height; y++) {
    if (raw[y * stride] !== 0) throw new Error('only filter type 0 is read here');
  }
  const pixel = (x: number, y: number) => {
    const start = y * stride + 1 + x * channels;
    return [...raw.subarray(start, start + channels)];
  };
  return {
    width,
    height,
    pixel,
    at: (fx, fy) => pixel(Math.floor(fx * width), Math.floor(fy * height)),
  };
}
