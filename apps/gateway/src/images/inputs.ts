/**
 * Stage 3 of an edit or a variation: the input images, read and checked before anything is
 * reserved (a refused image costs nothing). Each comes from one of four places:
 *
 *   a multipart file part            its bytes, already read (capped) by the route
 *   `file_id`, or our own CDN URL    the key's file, from the blob store (another key's: 404)
 *   a `data:` URL                    decoded
 *   a public https URL               fetched through the SSRF guard (remote-image.ts)
 *
 * then typed by content and held to the model's input rules (types, size, square, alpha, mask).
 */

import { badRequest, notFound } from '../errors/api-error.js';
import type { FilesService } from '../files/index.js';
import { cdnFileOf, imageInfo, readBlob, SNIFF_BYTES, sniffImageType } from '../files/index.js';
import type { ImageModelSpec } from '../models/images.js';
import type { InputImage } from '../providers/image/types.js';
import { fetchRemoteImage } from './remote-image.js';
import type { ImageRequest, ImageSource } from './request.js';

export interface InputDeps {
  files: FilesService;
  cdnUrl: string;
  /** Let image URLs name private addresses and plain http (MODELGATE_CALLBACK_ALLOW_PRIVATE). */
  allowPrivate: boolean;
  /** Deadline of a remote image fetch. */
  fetchTimeoutMs: number;
}

/** The request's images read: in order, and the mask. */
export interface LoadedInputs {
  images: InputImage[];
  mask?: InputImage;
}

const TYPE_NAMES: Record<string, string> = { png: 'PNG', jpg: 'JPEG', webp: 'WebP', gif: 'GIF' };

function invalidImage(param: string, message: string) {
  return badRequest(`${param}: ${message}`, param, 'invalid_image');
}

function fileNotFound(param: string, id: string) {
  return notFound(`${param}: no file ${id} of this key.`, 'file_not_found', param);
}

/** A key's file by id, with the extension its URL named when it came from one. */
async function readOwnFile(
  keyId: number,
  id: string,
  ext: string | null,
  param: string,
  files: FilesService,
): Promise<Buffer> {
  const row = await files.get(keyId, id);
  if (!row || (ext !== null && row.ext !== ext)) throw fileNotFound(param, id);
  const bytes = await readBlob(files.store, row.sha256);
  if (!bytes) throw fileNotFound(param, id);
  return bytes;
}

/** A `data:` URL's bytes (base64, or percent-encoded). */
function decodeDataUrl(url: string, param: string): Buffer {
  const comma = url.indexOf(',');
  if (comma < 0) throw invalidImage(param, 'the data: URL has no data.');
  const header = url.slice(5, comma);
  const payload = url.slice(comma + 1);
  if (/;base64$/i.test(header)) return Buffer.from(payload, 'base64');
  try {
    return Buffer.from(decodeURIComponent(payload), 'latin1');
  } catch {
    throw invalidImage(param, 'the data: URL is not valid percent-encoding.');
  }
}

async function bytesOf(
  source: ImageSource,
  keyId: number,
  maxBytes: number,
  deps: InputDeps,
): Promise<Buffer> {
  if (source.kind === 'bytes') return source.bytes;
  if (source.kind === 'file')
    return readOwnFile(keyId, source.fileId, null, source.param, deps.files);
  if (source.url.startsWith('data:')) return decodeDataUrl(source.url, source.param);
  const own = cdnFileOf(source.url, deps.cdnUrl);
  if (own) return readOwnFile(keyId, own.id, own.ext, source.param, deps.files);
  return fetchRemoteImage(source.url, source.param, {
    maxBytes,
    timeoutMs: deps.fetchTimeoutMs,
    allowPrivate: deps.allowPrivate,
  });
}

/** One image typed by content and held to the model's types and size limit. */
function typed(bytes: Buffer, param: string, spec: ImageModelSpec, maxBytes: number): InputImage {
  if (bytes.length === 0) throw invalidImage(param, 'the image is empty.');
  if (bytes.length > maxBytes) {
    throw invalidImage(
      param,
      `the image is ${bytes.length} bytes; ${spec.id} takes at most ${maxBytes}.`,
    );
  }
  const type = sniffImageType(bytes.subarray(0, SNIFF_BYTES));
  const takes = spec.input.types.map((t) => TYPE_NAMES[t]).join(', ');
  if (!type) {
    throw invalidImage(
      param,
      `not a PNG, JPEG, WebP or GIF image (decided by its content); ${spec.id} takes ${takes}.`,
    );
  }
  if (!spec.input.types.includes(type.ext)) {
    throw invalidImage(param, `a ${TYPE_NAMES[type.ext]} image; ${spec.id} takes ${takes}.`);
  }
  return { bytes, type, param };
}

/** Square images (dall-e-2), a mask of the first image's size, and transparency where needed. */
function checkShapes(loaded: LoadedInputs, spec: ImageModelSpec, edit: boolean): void {
  const [first] = loaded.images;
  if (!first) return;
  const info = imageInfo(first.bytes, first.type);
  if (!info) throw invalidImage(first.param, 'its header cannot be read.');
  if (spec.input.square && info.width !== info.height) {
    throw invalidImage(
      first.param,
      `${spec.id} takes a square image (got ${info.width}x${info.height}).`,
    );
  }
  const { mask } = loaded;
  if (mask) {
    const maskInfo = mask.type.ext === 'png' ? imageInfo(mask.bytes, mask.type) : null;
    if (!maskInfo?.alpha)
      throw invalidImage('mask', 'the mask must be a PNG with an alpha channel.');
    if (maskInfo.width !== info.width || maskInfo.height !== info.height) {
      throw invalidImage(
        'mask',
        `the mask is ${maskInfo.width}x${maskInfo.height}; it must be the image's size (${info.width}x${info.height}).`,
      );
    }
  } else if (edit && spec.input.needsAlpha && !info.alpha) {
    throw invalidImage(
      first.param,
      `${spec.id} draws where the image is transparent: send a PNG with an alpha channel, or a mask.`,
    );
  }
}

/**
 * @param maxUploadBytes the gateway's upload limit: each image at most this (or the model's own,
 *   lower, limit), all of them together at most four times this.
 * @throws ApiError 400 `invalid_image` / `invalid_image_url`, 404 `file_not_found`, 413.
 * @example
 * const inputs = await loadInputImages(request, key.id, maxUploadBytes, deps);
 */
export async function loadInputImages(
  request: ImageRequest,
  keyId: number,
  maxUploadBytes: number,
  deps: InputDeps,
): Promise<LoadedInputs> {
  const { spec } = request.model;
  const maxBytes = Math.min(maxUploadBytes, spec.input.maxBytes ?? maxUploadBytes);
  const read = async (source: ImageSource) =>
    typed(await bytesOf(source, keyId, maxBytes, deps), source.param, spec, maxBytes);
  const images: InputImage[] = [];
  let total = 0;
  for (const source of request.images) {
    const image = await read(source);
    total += image.bytes.length;
    if (total > 4 * maxUploadBytes) {
      throw invalidImage(
        source.param,
        `the images add up to more than ${4 * maxUploadBytes} bytes.`,
      );
    }
    images.push(image);
  }
  const loaded: LoadedInputs = { images };
  if (request.mask) loaded.mask = await read(request.mask);
  checkShapes(loaded, spec, request.operation === 'edit');
  return loaded;
}
