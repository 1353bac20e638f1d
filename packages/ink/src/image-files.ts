// Where `modelgate image --out` saves images, and saving them without ever overwriting a file.
import { existsSync, statSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { dirname, extname } from 'node:path';

/**
 * The files for `count` images: `out` itself for one, else `-1`, `-2`, … before the extension.
 *
 * @example
 * ```ts
 * outputPaths('fox.png', 1); // → ['fox.png']
 * outputPaths('fox.png', 2); // → ['fox-1.png', 'fox-2.png']
 * ```
 */
export function outputPaths(out: string, count: number): string[] {
  if (count === 1) return [out];
  const extension = extname(out);
  const stem = out.slice(0, out.length - extension.length);
  return Array.from({ length: count }, (_, index) => `${stem}-${index + 1}${extension}`);
}

/**
 * Why the images could not be saved at `paths`, or `undefined` when they can: checked before
 * generating, so a refusal costs no credits.
 *
 * @example
 * ```ts
 * unwritableReason(['fox.png']); // → 'fox.png already exists; not overwriting it (remove it or choose another --out)'
 * ```
 */
export function unwritableReason(paths: readonly string[]): string | undefined {
  for (const path of paths) {
    if (existsSync(path)) {
      return `${path} already exists; not overwriting it (remove it or choose another --out)`;
    }
    const folder = dirname(path);
    if (!existsSync(folder) || !statSync(folder).isDirectory()) {
      return `cannot save ${path}: ${folder} is not a directory`;
    }
  }
  return undefined;
}

/**
 * Downloads `url` (a file on the gateway's CDN: no key needed) into a new file at `path`; rejects
 * on an HTTP error, and when `path` appeared in the meantime (`wx`: never overwrites).
 *
 * @example
 * ```ts
 * await saveImage('http://localhost:8081/files/file-abc.png', 'fox.png');
 * ```
 */
export async function saveImage(url: string, path: string, signal?: AbortSignal): Promise<void> {
  const response = await fetch(url, { signal });
  if (!response.ok) throw new Error(`downloading ${url}: HTTP ${response.status}`);
  const bytes = new Uint8Array(await response.arrayBuffer());
  await writeFile(path, bytes, { flag: 'wx' });
}
