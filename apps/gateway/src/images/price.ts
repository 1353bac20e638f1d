/**
 * What an image request costs: the reservation before the upstream call (the worst case of what
 * was asked) and the charge after it (each image returned at the quality and size the upstream
 * says it made). Prices per image are in models.ts.
 */
import type { ImageModelSpec } from '../models/images.js';
import type { ImageRequest } from './request.js';

/** What the upstream says it made (the GPT image models say; DALL·E makes what was asked). */
export interface MadeImages {
  count: number;
  size?: string | undefined;
  quality?: string | undefined;
}

/** The price of one image: for `auto` quality or size, the highest the model charges. */
function unitsPerImage(spec: ImageModelSpec, quality: string, size: string): number {
  const qualities = quality === 'auto' ? Object.keys(spec.unitsPerImage) : [quality];
  let highest = 0;
  for (const q of qualities) {
    const bySize = spec.unitsPerImage[q] ?? {};
    const sizes = size === 'auto' ? Object.keys(bySize) : [size];
    for (const s of sizes) highest = Math.max(highest, bySize[s] ?? 0);
  }
  return highest;
}

/**
 * @example
 * reservedUnits(request); // n = 2, gpt-image-1, auto quality and size: 2 × 250,000
 */
export function reservedUnits(request: ImageRequest): number {
  return request.n * unitsPerImage(request.model.spec, request.quality, request.size);
}

/**
 * Each image at the price of what was made, never above what was reserved for it (an answer
 * naming a pair the table does not price, or a dearer one than asked, costs the reserved price).
 *
 * @example
 * chargedUnits(request, { count: 2, size: '1024x1024', quality: 'medium' }); // 2 × 42,000
 */
export function chargedUnits(request: ImageRequest, made: MadeImages): number {
  const { spec } = request.model;
  const reservedEach = unitsPerImage(spec, request.quality, request.size);
  const reported =
    made.quality && made.size ? spec.unitsPerImage[made.quality]?.[made.size] : undefined;
  return Math.min(made.count, request.n) * Math.min(reported ?? reservedEach, reservedEach);
}
