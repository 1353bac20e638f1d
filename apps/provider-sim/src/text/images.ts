// Image inputs of both protocols (OpenAI chat `image_url` parts, Anthropic `image` blocks). The simulator
// cannot look at pictures; it checks them as the real APIs do and says how many it was shown, so
// callers can tell images arrived. Like a real provider on the internet, it cannot download from a
// loopback address: such URLs are refused, which shows when a caller forgot to inline its own files.
import { badRequest, isRecord } from '../errors.js';
import type { Generation } from './generate.js';

const MEDIA_TYPES = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp']);
const DATA_URL = /^data:(image\/[a-z]+);base64,([A-Za-z0-9+/=]+)$/;

/** Whether the simulated provider could fetch this URL (an http(s) URL off the loopback). */
function downloadable(url: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  const host = parsed.hostname;
  const loopback = host === 'localhost' || host.startsWith('127.') || host === '[::1]';
  return (parsed.protocol === 'https:' || parsed.protocol === 'http:') && !loopback;
}

/** Checks one chat `image_url` part; throws the API's 400. */
export function checkImagePart(part: Record<string, unknown>, where: string): void {
  const url = isRecord(part.image_url) ? part.image_url.url : undefined;
  if (typeof url !== 'string')
    throw badRequest(
      `Missing required parameter: '${where}.image_url.url'.`,
      `${where}.image_url.url`,
    );
  const data = DATA_URL.exec(url);
  if (url.startsWith('data:')) {
    if (!data || !MEDIA_TYPES.has(data[1]!))
      throw badRequest(
        "Invalid image data URL: expected 'data:image/{jpeg,png,gif,webp};base64,…'.",
        `${where}.image_url.url`,
        'invalid_image_url',
      );
    return;
  }
  if (!downloadable(url))
    throw badRequest(
      `Error while downloading ${url}.`,
      `${where}.image_url.url`,
      'invalid_image_url',
    );
}

/** Checks one messages `image` block; throws the API's 400. */
export function checkImageBlock(block: Record<string, unknown>, where: string): void {
  const source = block.source;
  if (!isRecord(source)) throw badRequest(`${where}.image.source: Field required`);
  if (source.type === 'url') {
    if (typeof source.url !== 'string' || !downloadable(source.url))
      throw badRequest(
        `${where}.image.source.url: Unable to download the file. Please verify the URL and try again.`,
      );
    return;
  }
  if (source.type !== 'base64')
    throw badRequest(
      `${where}.image.source: Input tag does not match any of the expected tags: 'base64', 'url'`,
    );
  if (typeof source.media_type !== 'string' || !MEDIA_TYPES.has(source.media_type))
    throw badRequest(
      `${where}.image.source.base64.media_type: Input should be 'image/jpeg', 'image/png', 'image/gif' or 'image/webp'`,
    );
  if (typeof source.data !== 'string' || !/^[A-Za-z0-9+/=]+$/.test(source.data))
    throw badRequest(`${where}.image.source.base64.data: The image data is not valid base64.`);
}

/**
 * The answer, opened with what the model saw: "I see 2 images. …".
 *
 * @example
 * acknowledgeImages(g, 1).text; // 'I see 1 image. Quiet river …'
 */
export function acknowledgeImages(g: Generation, count: number): Generation {
  if (count === 0) return g;
  const note = `I see ${count} image${count === 1 ? '' : 's'}. `;
  return { ...g, pieces: [note, ...g.pieces], text: note + g.text };
}
