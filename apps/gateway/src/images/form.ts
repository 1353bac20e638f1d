/**
 * An edit or a variation sent as multipart/form-data (what the `openai` client's `images.edit()`
 * and `images.createVariation()` send), read with the gateway's one multipart parser
 * (files/multipart.ts): the image parts (`image`, repeated or as `image[]`, and `mask`) into
 * memory, capped, and the text parts as the typed values the spec's schema names (a form carries
 * `2`, `true` and `null` as text).
 */
import type { z } from 'zod';
import { type ApiError, badRequest, tooLarge } from '../errors/api-error.js';
import { BlobTooLargeError, MultipartError, readMultipart } from '../files/index.js';
import type { ImageSource } from './request.js';

/** A multipart edit or variation: its text fields typed for validation, and its images. */
export interface ImageForm {
  fields: Record<string, unknown>;
  images: ImageSource[];
  mask?: ImageSource;
}

export interface ImageFormOptions {
  /** The schema of the text fields (the spec's form schema without its file fields). */
  fields: z.ZodObject;
  /** Most image parts (16 for an edit, 1 for a variation). */
  maxImages: number;
  /** Largest image part; all of them together at most four times this. */
  maxImageBytes: number;
}

/** The longest text part: a 32,000-character prompt in 4-byte characters, with room to spare. */
const MAX_FIELD_BYTES = 256 * 1024;

const IMAGE_FIELDS = new Set(['image', 'image[]']);

/**
 * The value the schema takes for a text part: the text itself, else the number, boolean or null
 * it spells. When none fits, the text, so validation names the field and says why.
 */
function typedValue(raw: string, schema: z.ZodType | undefined): unknown {
  if (!schema) return raw;
  const candidates: unknown[] = [raw];
  if (/^-?\d+(\.\d+)?$/.test(raw.trim())) candidates.push(Number(raw));
  if (raw === 'true' || raw === 'false') candidates.push(raw === 'true');
  if (raw === 'null') candidates.push(null);
  return candidates.find((value) => schema.safeParse(value).success) ?? raw;
}

function fileTooLarge(max: number): ApiError {
  const err = tooLarge(`An image exceeds the limit of ${max} bytes.`, 'file_too_large');
  // The client may still be sending; don't keep the connection for the rest of it.
  err.headers.connection = 'close';
  return err;
}

/**
 * @throws ApiError 400 for a malformed body, a repeated or misplaced field, too many images;
 *   413 `file_too_large` for an image over the limit.
 * @example
 * const form = await readImageForm(body, boundary, { fields: zEditFields, maxImages: 16, maxImageBytes });
 */
export async function readImageForm(
  source: AsyncIterable<Uint8Array>,
  boundary: string,
  options: ImageFormOptions,
): Promise<ImageForm> {
  const form: ImageForm = { fields: {}, images: [] };
  const shape = options.fields.shape as Record<string, z.ZodType>;
  let total = 0;
  const readImage = async (
    part: { filename?: string; bytes(max: number): Promise<Buffer> },
    param: string,
  ) => {
    if (part.filename === undefined) {
      throw badRequest(`${param} must be a file part (with a filename).`, param, 'invalid_type');
    }
    const bytes = await part.bytes(options.maxImageBytes);
    total += bytes.length;
    if (total > 4 * options.maxImageBytes) throw new BlobTooLargeError(4 * options.maxImageBytes);
    return { kind: 'bytes' as const, bytes, param };
  };
  try {
    for await (const part of readMultipart(source, boundary)) {
      if (IMAGE_FIELDS.has(part.name)) {
        if (form.images.length === options.maxImages) {
          throw badRequest(
            `Send at most ${options.maxImages} image${options.maxImages === 1 ? '' : 's'}.`,
            'image',
            'out_of_range',
          );
        }
        form.images.push(await readImage(part, `image.${form.images.length}`));
      } else if (part.name === 'mask') {
        if (form.mask) throw badRequest('Send one mask.', 'mask', 'invalid_value');
        form.mask = await readImage(part, 'mask');
      } else {
        // Refused as it arrives: an unknown part is never read into memory.
        if (!(part.name in shape)) {
          throw badRequest(`Unknown field: ${part.name}.`, part.name, 'unknown_field');
        }
        if (part.name in form.fields) {
          throw badRequest(`The field ${part.name} was sent twice.`, part.name, 'invalid_value');
        }
        const raw = await part.text(MAX_FIELD_BYTES);
        form.fields[part.name] = typedValue(raw, shape[part.name]);
      }
    }
  } catch (error) {
    if (error instanceof BlobTooLargeError) throw fileTooLarge(error.maxBytes);
    if (error instanceof MultipartError) {
      throw badRequest(`Malformed multipart body: ${error.message}.`, null, 'invalid_multipart');
    }
    throw error;
  }
  if (form.images.length === 0)
    throw badRequest('Missing required field: image.', 'image', 'missing_field');
  return form;
}
