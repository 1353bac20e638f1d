// A real PNG built in code (signature, IHDR, one zlib-compressed IDAT, IEND): what the simulated
// image models return. Rows are filtered with filter type 0 (none); images made of flat colour
// compress to a few kilobytes whatever their size.
import { crc32, deflateSync } from 'node:zlib';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** One row of pixels: `channels` bytes per pixel (3 = RGB, 4 = RGBA). */
export type Row = Uint8Array;

/** One chunk: length, type, data, CRC-32 of type and data. */
function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(data, crc32(head.subarray(4))), 0);
  return Buffer.concat([head, data, crc]);
}

/**
 * Encodes `height` rows (`rowAt(y)` may return the same array for many rows) as an 8-bit RGB or
 * RGBA PNG.
 *
 * @example
 * const red = new Uint8Array([255, 0, 0]);
 * encodePng(1, 1, 3, () => red); // a 1×1 red PNG
 */
export function encodePng(
  width: number,
  height: number,
  channels: 3 | 4,
  rowAt: (y: number) => Row,
): Buffer {
  const stride = 1 + width * channels;
  const raw = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) raw.set(rowAt(y), y * stride + 1);
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = channels === 4 ? 6 : 2; // colour type: RGBA or RGB
  return Buffer.concat([
    SIGNATURE,
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
