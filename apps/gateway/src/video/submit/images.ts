/**
 * A submit request's images (`image_url`, the first frame, and `last_frame_url`): where each comes
 * from, and whether the model takes it that way.
 */
import { CDN_FILE_NAME } from '../../files/index.js';
import type { VideoModelSpec } from '../models.js';
import type { ImageSource } from '../tables.js';
import { VideoRequestError } from './request-error.js';

/** A request's images; a key is present only when its field was given. */
export interface VideoImages {
  image?: ImageSource;
  lastFrame?: ImageSource;
}

/**
 * Decides whether an image URL is one of our files (read from storage, never fetched) or an
 * external HTTPS URL; anything else is refused.
 *
 * @example
 * classifyImageUrl('http://localhost:8081/files/file-abc.png', 'http://localhost:8081', 'image_url');
 * // { kind: 'file', fileId: 'file-abc' }
 */
export function classifyImageUrl(value: unknown, cdnUrl: string, param: string): ImageSource {
  if (typeof value !== 'string' || value.length === 0) {
    throw new VideoRequestError(param, `${param} must be a URL string`, 'invalid_type');
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new VideoRequestError(param, `${param} is not a valid URL`);
  }
  const cdn = new URL(cdnUrl);
  const cdnPath = cdn.pathname.replace(/\/+$/, '');
  if (url.origin === cdn.origin && url.pathname.startsWith(`${cdnPath}/files/`)) {
    const match = CDN_FILE_NAME.exec(url.pathname.slice(`${cdnPath}/files/`.length));
    if (!match) throw new VideoRequestError(param, `${param} is not a file URL of this service`);
    return { kind: 'file', fileId: match[1]! };
  }
  if (url.protocol !== 'https:') {
    throw new VideoRequestError(
      param,
      `${param} must be an https URL or a file URL from POST /v1/files (${cdnUrl}/files/…)`,
    );
  }
  return { kind: 'external', url: url.toString() };
}

function readFirstFrame(
  body: Record<string, unknown>,
  spec: VideoModelSpec,
  cdnUrl: string,
): ImageSource | undefined {
  if (body.image_url !== undefined && body.image_url !== null) {
    if (spec.imageInput === 'none') {
      throw new VideoRequestError('image_url', `${spec.id} does not take image_url`);
    }
    return classifyImageUrl(body.image_url, cdnUrl, 'image_url');
  }
  if (spec.imageInput === 'required') {
    throw new VideoRequestError(
      'image_url',
      `${spec.id} requires image_url (first frame)`,
      'missing_field',
    );
  }
  return undefined;
}

function readLastFrame(
  body: Record<string, unknown>,
  spec: VideoModelSpec,
  cdnUrl: string,
  hasImage: boolean,
): ImageSource | undefined {
  if (body.last_frame_url === undefined || body.last_frame_url === null) return undefined;
  if (!spec.lastFrame) {
    throw new VideoRequestError('last_frame_url', `${spec.id} does not take last_frame_url`);
  }
  const lastFrame = classifyImageUrl(body.last_frame_url, cdnUrl, 'last_frame_url');
  if (!hasImage) {
    throw new VideoRequestError(
      'last_frame_url',
      'last_frame_url needs image_url (the first frame)',
      'missing_field',
    );
  }
  return lastFrame;
}

/**
 * The request's images, checked against what the model takes: whether it takes (or requires) a
 * first frame, a last frame, and external URLs at all.
 *
 * @example
 * readImages({ image_url: `${cdnUrl}/files/file-abc.png` }, VIDEO_MODELS['kling-v3'], cdnUrl);
 * // { image: { kind: 'file', fileId: 'file-abc' } }
 */
export function readImages(
  body: Record<string, unknown>,
  spec: VideoModelSpec,
  cdnUrl: string,
): VideoImages {
  const images: VideoImages = {};
  const image = readFirstFrame(body, spec, cdnUrl);
  if (image) images.image = image;
  const lastFrame = readLastFrame(body, spec, cdnUrl, image !== undefined);
  if (lastFrame) images.lastFrame = lastFrame;
  for (const [param, source] of [
    ['image_url', images.image],
    ['last_frame_url', images.lastFrame],
  ] as const) {
    if (source?.kind === 'external' && spec.imageTransport === 'inline_only') {
      throw new VideoRequestError(
        param,
        `${spec.id} takes images inline only: upload the image with POST /v1/files and pass its url`,
      );
    }
  }
  return images;
}
