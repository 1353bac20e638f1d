// Image files for upload tests: the gateway decides the type by the first bytes.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** Writes `<dir>/<name>`: a PNG signature followed by `size` − 8 bytes. */
export function writePng(dir: string, name: string, size = 200_000): string {
  const bytes = new Uint8Array(size);
  bytes.set(PNG_SIGNATURE);
  const path = join(dir, name);
  writeFileSync(path, bytes);
  return path;
}
