/** The provider request of a task, built from its stored params (our files inline or by URL). */
import { type FilesService, readBlob } from '../../files/index.js';
import { VIDEO_MODELS } from '../models.js';
import type { ImageInput, VideoSubmitRequest } from '../providers/types.js';
import type { ImageSource } from '../tables.js';
import type { VideoTaskRow } from '../task-object.js';
import { TaskInputError } from './types.js';

/** Whether files we serve are reachable by providers (several fetch only public HTTPS URLs). */
export function isPublicHttps(cdnUrl: string): boolean {
  try {
    const url = new URL(cdnUrl);
    const host = url.hostname;
    return (
      url.protocol === 'https:' &&
      host !== 'localhost' &&
      !host.endsWith('.localhost') &&
      !/^(127\.|10\.|192\.168\.|172\.(1[6-9]|2\d|3[01])\.|\[)/.test(host) &&
      host.includes('.')
    );
  } catch {
    return false;
  }
}

export interface RequestBuilderDeps {
  files: FilesService;
  /** Our CDN's base URL, without a trailing slash. */
  cdnUrl: string;
}

/** One image of the request: external URLs pass through; our files go by URL or inline. */
async function resolveImage(
  deps: RequestBuilderDeps & { publicCdn: boolean },
  keyId: number,
  source: ImageSource | undefined,
  param: string,
  transport: string,
): Promise<ImageInput | undefined> {
  if (!source) return undefined;
  if (source.kind === 'external') return { kind: 'url', url: source.url };
  const row = await deps.files.get(keyId, source.fileId);
  if (!row)
    throw new TaskInputError(
      'image_not_found',
      `${param}: the file ${source.fileId} was deleted before the task was submitted`,
    );
  if (deps.publicCdn || transport === 'url_only')
    return { kind: 'url', url: deps.files.toObject(row).url };
  // Read from our storage, never over the network, and hand it over inline.
  const bytes = await readBlob(deps.files.store, row.sha256);
  if (!bytes)
    throw new TaskInputError(
      'image_not_found',
      `${param}: the bytes of ${source.fileId} are missing`,
    );
  return { kind: 'inline', mimeType: row.mime_type, base64: bytes.toString('base64') };
}

/**
 * The engine's `buildRequest`: the provider request from a task's stored params. Images that are
 * our files go as our CDN's URL where providers can reach it (or must take a URL), inline otherwise.
 */
export function createRequestBuilder(
  deps: RequestBuilderDeps,
): (row: VideoTaskRow) => Promise<VideoSubmitRequest> {
  const images = { ...deps, publicCdn: isPublicHttps(deps.cdnUrl) };
  return async function buildRequest(row: VideoTaskRow): Promise<VideoSubmitRequest> {
    const p = row.params;
    const request: VideoSubmitRequest = {
      prompt: p.prompt,
      duration: p.duration,
      resolution: p.resolution,
      aspectRatio: p.aspectRatio,
    };
    const transport = VIDEO_MODELS[row.model]?.imageTransport ?? 'url_or_inline';
    const image = await resolveImage(images, row.key_id, p.image, 'image_url', transport);
    if (image) request.image = image;
    const lastFrame = await resolveImage(
      images,
      row.key_id,
      p.lastFrame,
      'last_frame_url',
      transport,
    );
    if (lastFrame) request.lastFrame = lastFrame;
    if (p.seed !== undefined) request.seed = p.seed;
    if (p.negativePrompt !== undefined) request.negativePrompt = p.negativePrompt;
    if (p.generateAudio !== undefined) request.generateAudio = p.generateAudio;
    return request;
  };
}
