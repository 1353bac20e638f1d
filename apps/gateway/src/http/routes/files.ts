/**
 * Files: POST /v1/files (streaming multipart upload), GET and DELETE /v1/files/{file_id}.
 * The upload is never buffered whole: the `file` part streams into the blob store's staging area,
 * hashed and size-checked as it arrives (413 the moment it passes the limit), then its type is
 * decided from its first bytes (415 unless PNG, JPEG, WebP or GIF). Refused uploads keep nothing.
 */
import type { Hono } from 'hono';
import {
  ApiError,
  badRequest,
  notFound,
  tooLarge,
  unsupportedMediaType,
} from '../../errors/api-error.js';
import {
  BlobTooLargeError,
  boundaryOf,
  MultipartError,
  readMultipart,
  type StagedBlob,
  sniffImageType,
} from '../../files/index.js';
import type { Services } from '../../services.js';
import type { AppEnv } from '../env.js';

/** Multipart framing and the small `purpose` field on top of the file itself. */
const ENVELOPE_SLACK_BYTES = 64 * 1024;

/** Drops control characters (CR/LF in a stored filename would end up in headers and logs). */
function stripControlCharacters(name: string): string {
  return [...name].filter((ch) => ch.charCodeAt(0) >= 0x20 && ch.charCodeAt(0) !== 0x7f).join('');
}

function fileTooLarge(max: number): ApiError {
  const err = tooLarge(`The file exceeds the upload limit of ${max} bytes.`, 'file_too_large');
  // The client may still be sending; don't keep the connection for the rest of it.
  err.headers.connection = 'close';
  return err;
}

export function registerFileRoutes(app: Hono<AppEnv>, services: Services): void {
  const { files } = services;

  app.post('/v1/files', async (c) => {
    const key = c.get('key');
    const max = files.maxUploadBytes;
    const boundary = boundaryOf(c.req.header('content-type'));
    if (!boundary) {
      throw new ApiError(
        415,
        'unsupported_media_type',
        'POST /v1/files takes multipart/form-data with the fields file and purpose.',
        { code: 'unsupported_media_type' },
      );
    }
    const declared = Number(c.req.header('content-length') ?? Number.NaN);
    if (Number.isFinite(declared) && declared > max + ENVELOPE_SLACK_BYTES) throw fileTooLarge(max);
    const body = c.req.raw.body;
    if (!body) throw badRequest('The request has no body.', 'file', 'missing_field');

    let staged: StagedBlob | undefined;
    let filename = '';
    let purpose: string | undefined;
    try {
      // preventCancel: cancelling would destroy the socket before the 413 is written.
      const source = body.values({ preventCancel: true });
      for await (const part of readMultipart(source, boundary)) {
        if (part.name === 'file') {
          if (staged) throw badRequest('Send exactly one file part.', 'file', 'invalid_value');
          if (part.filename === undefined) {
            throw badRequest(
              'The file field must be a file part (with a filename).',
              'file',
              'invalid_type',
            );
          }
          filename = stripControlCharacters(part.filename).slice(0, 255);
          staged = await files.store.stage(part.body, { maxBytes: max });
        } else if (part.name === 'purpose') {
          purpose = (await part.text(64)).trim();
        } else {
          throw badRequest(`Unknown field: ${part.name}.`, part.name, 'unknown_field');
        }
      }
    } catch (error) {
      await staged?.discard();
      if (error instanceof BlobTooLargeError) throw fileTooLarge(max);
      if (error instanceof MultipartError)
        throw badRequest(`Malformed multipart body: ${error.message}.`, null, 'invalid_multipart');
      throw error;
    }
    try {
      if (!staged) throw badRequest('Missing required field: file.', 'file', 'missing_field');
      if (purpose === undefined)
        throw badRequest('Missing required field: purpose.', 'purpose', 'missing_field');
      if (purpose !== 'image')
        throw badRequest('purpose must be one of: "image".', 'purpose', 'invalid_value');
      if (staged.size === 0) throw badRequest('The file is empty.', 'file', 'invalid_value');
      const type = sniffImageType(staged.head);
      if (!type) {
        throw unsupportedMediaType(
          'The file is not a PNG, JPEG, WebP or GIF image (decided by its content, not its name).',
          'unsupported_file_type',
        );
      }
      const object = await files.create(key.id, staged, type, {
        filename: filename || `upload.${type.ext}`,
        purpose,
      });
      return c.json(object, 200);
    } finally {
      await staged?.discard();
    }
  });

  app.get('/v1/files/:file_id', async (c) => {
    const row = await files.get(c.get('key').id, c.req.param('file_id'));
    if (!row) throw notFound(`No file ${c.req.param('file_id')}.`, 'file_not_found', 'file_id');
    return c.json(files.toObject(row));
  });

  app.delete('/v1/files/:file_id', async (c) => {
    const id = c.req.param('file_id');
    if (!(await files.delete(c.get('key').id, id)))
      throw notFound(`No file ${id}.`, 'file_not_found', 'file_id');
    return c.json({ id, object: 'file', deleted: true });
  });
}
