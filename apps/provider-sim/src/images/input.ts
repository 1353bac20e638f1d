// The picture an image-to-image request starts from: the caller's PNG decoded, or, for an image
// the simulator cannot decode (JPEG, WebP), a mid-grey canvas of its size, so the answer still
// shows the request's words and tint.

import { createRaster, decodePng, type Raster } from './raster.js';
import { imageSize } from './size.js';

/**
 * @example
 * const picture = startingPicture(bytes); // the decoded PNG, or grey
 */
export function startingPicture(bytes: Buffer): Raster {
  const decoded = decodePng(bytes);
  if (decoded) return decoded;
  const { width, height } = imageSize(bytes) ?? { width: 1024, height: 1024 };
  return createRaster(width, height, [128, 128, 128, 255]);
}

/** The type of an image by its first bytes, as the real APIs decide it. */
export function imageKind(bytes: Buffer): 'png' | 'jpeg' | 'webp' | 'gif' | null {
  if (bytes.subarray(0, 8).toString('hex') === '89504e470d0a1a0a') return 'png';
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WEBP')
    return 'webp';
  if (bytes.toString('latin1', 0, 4) === 'GIF8') return 'gif';
  return null;
}
