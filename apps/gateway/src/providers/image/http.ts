/**
 * What the image adapters share on top of the provider HTTP plumbing (provider-http.ts): the
 * timeouts of an image answer, and images in and out (decoded and typed by content; as a data
 * URL or a multipart file part).
 */
import { SNIFF_BYTES, sniffImageType } from '../../files/index.js';
import { badAnswer } from '../provider-http.js';
import type { ProviderTimeouts } from '../text/types.js';
import type { InputImage, UpstreamImage } from './types.js';

export { badAnswer, ProviderHttp } from '../provider-http.js';

/**
 * A high-quality GPT image can take a minute or two before the first byte (the answer comes whole),
 * so the first-byte timeout is three times the text one.
 */
export const IMAGE_TIMEOUTS: ProviderTimeouts = {
  connectMs: 5_000,
  firstByteMs: 180_000,
  idleMs: 60_000,
};

/**
 * An image the upstream sent as base64, decoded and typed by its content.
 *
 * @throws UpstreamError 502 when it is not PNG, JPEG, WebP or GIF.
 */
export function imageFromBase64(base64: string, provider: string): UpstreamImage {
  const bytes = Buffer.from(base64, 'base64');
  return imageFromBytes(bytes, provider, base64);
}

/** An image the upstream sent as bytes (a downloaded URL), typed by its content. */
export function imageFromBytes(bytes: Buffer, provider: string, base64?: string): UpstreamImage {
  const type = sniffImageType(bytes.subarray(0, SNIFF_BYTES));
  if (!type) throw badAnswer(provider, 'an image that is not PNG, JPEG, WebP or GIF');
  return { bytes, base64: base64 ?? bytes.toString('base64'), type };
}

/** An input image as a `data:` URL (the form the JSON upstreams take inline images in). */
export function dataUrl(image: InputImage): string {
  return `data:${image.type.mime};base64,${image.bytes.toString('base64')}`;
}

/** An input image as a multipart file part. */
export function imageBlob(image: InputImage): Blob {
  return new Blob([new Uint8Array(image.bytes)], { type: image.type.mime });
}
