// Pictures the simulated models made from a caller's image (edits, variations, image-to-image),
// kept for the URLs they are handed out under: unlike a generated picture, one cannot be drawn
// again from its name. The newest 64 are kept.
import { randomBytes } from 'node:crypto';

const MAX_KEPT = 64;
const kept = new Map<string, Buffer>();

/** Keeps the bytes; returns the name to serve them under (`made-<hex>.png`). */
export function keepMade(bytes: Buffer, ext = 'png'): string {
  const name = `made-${randomBytes(8).toString('hex')}.${ext}`;
  if (kept.size >= MAX_KEPT) kept.delete(kept.keys().next().value as string);
  kept.set(name, bytes);
  return name;
}

/** The bytes kept under `name`, or undefined. */
export function madeBytes(name: string): Buffer | undefined {
  return kept.get(name);
}
