/**
 * Which endpoint serves a model id, so a request that names a model on the wrong endpoint is told
 * where to send it ("kling-v3 is a video model: use POST /v1/video/generations") instead of that
 * the model does not exist. The image, embedding and video ids are fixed tables; text models come
 * from the text catalogue, so an endpoint that can name them passes a lookup.
 */
import { zVideoModelId } from '@modelgate/core/zod';
import { type ApiError, notFound } from '../errors/api-error.js';
import { EMBEDDING_MODEL_IDS } from './embeddings.js';
import { IMAGE_MODEL_IDS } from './images.js';
import type { ModelListEntry } from './types.js';

export type ModelKind = ModelListEntry['type'];

/** Whether an id is a text model the gateway routes (the text catalogue's `resolve`). */
export type IsTextModel = (id: string) => boolean;

const VIDEO_IDS: ReadonlySet<string> = new Set(zVideoModelId.options);

/**
 * The image, embedding and video model ids: never resolved as text models, even in pass-through
 * mode where any other name goes upstream unchanged.
 */
export const NON_TEXT_MODEL_IDS: ReadonlySet<string> = new Set([
  ...VIDEO_IDS,
  ...IMAGE_MODEL_IDS,
  ...EMBEDDING_MODEL_IDS,
]);

const ENDPOINT: Record<ModelKind, string> = {
  text: 'POST /v1/chat/completions (or /v1/completions, /v1/messages)',
  image: 'POST /v1/images/generations (or /v1/images/edits, /v1/images/variations)',
  video: 'POST /v1/video/generations',
  embedding: 'POST /v1/embeddings',
};

const ARTICLE: Record<ModelKind, string> = {
  text: 'a text',
  image: 'an image',
  video: 'a video',
  embedding: 'an embedding',
};

/** The kind of a model id the gateway knows, or undefined. */
export function modelKindOf(id: string, isText?: IsTextModel): ModelKind | undefined {
  if (VIDEO_IDS.has(id)) return 'video';
  if (IMAGE_MODEL_IDS.has(id)) return 'image';
  if (EMBEDDING_MODEL_IDS.has(id)) return 'embedding';
  if (isText?.(id)) return 'text';
  return undefined;
}

/**
 * The 404 `model_not_found` for an id an endpoint serving `kind` does not know: when the id is
 * another kind of model, the message says which and names the endpoint that serves it.
 *
 * @example
 * throw unknownModel('kling-v3', 'text');
 * // 404: The model "kling-v3" is a video model, not a text model: use POST /v1/video/generations.
 */
export function unknownModel(id: string, kind: ModelKind, isText?: IsTextModel): ApiError {
  const actual = modelKindOf(id, isText);
  const message =
    actual && actual !== kind
      ? `The model "${id}" is ${ARTICLE[actual]} model, not ${ARTICLE[kind]} model: use ${ENDPOINT[actual]}.`
      : `The ${kind === 'text' ? '' : `${kind} `}model "${id}" does not exist.`;
  return notFound(message, 'model_not_found', 'model');
}
