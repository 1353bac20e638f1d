// Image files for upload tests: the gateway decides the type by the first bytes.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** Writes `<dir>/<name>`: a PNG signature followed by `size` − 8 bytes. */
export function writePng(dir: string, name: string, size = 200_000): string {
  const bytes = new Uint8Array(size);
  bytes.set(PNG_SIGNATURE);
  const path = join(dir, name);
  writeFileSync(path, bytes);
  return path;
}

/** One PNG chunk: length, type, data, CRC-32. */
function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/**
 * Writes `<dir>/<name>`: a real `size`² RGBA PNG (a picture a model can edit) of white, with
 * `pixel(x, y)` deciding each pixel when given.
 */
export function writePicture(
  dir: string,
  name: string,
  size: number,
  pixel: (x: number, y: number) => [number, number, number, number] = () => [255, 255, 255, 255],
): string {
  const raw = Buffer.alloc(size * (1 + size * 4));
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) raw.set(pixel(x, y), y * (1 + size * 4) + 1 + x * 4);
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 8;
  ihdr[9] = 6;
  const png = Buffer.concat([
    Buffer.from(PNG_SIGNATURE),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
  const path = join(dir, name);
  writeFileSync(path, png);
  return path;
}
