/**
 * Image routes: POST /v1/images/generations, /v1/images/edits (multipart or JSON) and
 * /v1/images/variations (multipart). Each reads its body (JSON validated with the spec's zod
 * schema; multipart through images/form.ts, its text fields validated the same way) and hands the
 * typed fields, and where the input images come from, to the image service (which resolves,
 * checks the model's table, reads the images, bills, routes and stores).
 */
import type { ImageReference } from '@modelgate/core';
import {
  zCreateImageEditJsonRequest,
  zCreateImageEditRequest,
  zCreateImageRequest,
  zCreateImageVariationRequest,
} from '@modelgate/core/zod';
import type { Context, Hono } from 'hono';
import { ApiError, badRequest } from '../../errors/api-error.js';
import { validateBody } from '../../errors/validate.js';
import { boundaryOf } from '../../files/index.js';
import { readImageForm } from '../../images/form.js';
import type { ImageSource } from '../../images/request.js';
import type { ImageRequestContext } from '../../images/service.js';
import type { Services } from '../../services.js';
import { clientAbort } from '../client-abort.js';
import type { AppEnv } from '../env.js';
import { readJsonBody } from '../validate.js';

const zEditFields = zCreateImageEditRequest.omit({ image: true, mask: true });
const zVariationFields = zCreateImageVariationRequest.omit({ image: true });

function requestContext(c: Context<AppEnv>): ImageRequestContext {
  return {
    key: c.get('key'),
    requestId: c.get('requestId'),
    startedAt: c.get('startedAt') ?? performance.now(),
    abort: clientAbort(c),
  };
}

/** The multipart body's stream; cancelling it would destroy the socket before a 413 is written. */
function bodyStream(c: Context<AppEnv>): AsyncIterable<Uint8Array> {
  const body = c.req.raw.body;
  if (!body) throw badRequest('The request has no body.', 'image', 'missing_field');
  return body.values({ preventCancel: true });
}

/** One JSON image reference: exactly one of image_url and file_id. */
function referenced(reference: ImageReference, param: string): ImageSource {
  const { image_url: url, file_id: fileId } = reference;
  if ((url === undefined) === (fileId === undefined)) {
    throw badRequest(
      `${param} must have exactly one of image_url and file_id.`,
      param,
      'invalid_value',
    );
  }
  return url !== undefined
    ? { kind: 'url', url, param: `${param}.image_url` }
    : { kind: 'file', fileId: fileId!, param: `${param}.file_id` };
}

export function registerImageRoutes(app: Hono<AppEnv>, services: Services): void {
  const maxImageBytes = services.files.maxUploadBytes;

  app.post('/v1/images/generations', async (c) => {
    const body = validateBody(zCreateImageRequest, await readJsonBody(c));
    return services.images.generate(body, requestContext(c));
  });

  app.post('/v1/images/edits', async (c) => {
    const boundary = boundaryOf(c.req.header('content-type'));
    if (boundary) {
      const form = await readImageForm(bodyStream(c), boundary, {
        fields: zEditFields,
        maxImages: 16,
        maxImageBytes,
      });
      const body = validateBody(zEditFields, form.fields);
      return services.images.transform(
        { operation: 'edit', body, images: form.images, mask: form.mask },
        requestContext(c),
      );
    }
    const { images, mask, ...body } = validateBody(
      zCreateImageEditJsonRequest,
      await readJsonBody(c),
    );
    return services.images.transform(
      {
        operation: 'edit',
        body,
        images: images.map((reference, i) => referenced(reference, `images.${i}`)),
        mask: mask ? referenced(mask, 'mask') : undefined,
      },
      requestContext(c),
    );
  });

  app.post('/v1/images/variations', async (c) => {
    const boundary = boundaryOf(c.req.header('content-type'));
    if (!boundary) {
      throw new ApiError(
        415,
        'unsupported_media_type',
        'POST /v1/images/variations takes multipart/form-data with the field image.',
        { code: 'unsupported_media_type' },
      );
    }
    const form = await readImageForm(bodyStream(c), boundary, {
      fields: zVariationFields,
      maxImages: 1,
      maxImageBytes,
    });
    const body = validateBody(zVariationFields, form.fields);
    const [image] = form.images as [ImageSource];
    return services.images.transform(
      { operation: 'variation', body, images: [image] },
      requestContext(c),
    );
  });
}
