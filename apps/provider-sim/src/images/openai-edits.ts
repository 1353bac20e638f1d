// `POST /images/edits` and `POST /images/variations` (docs/providers.md#12-openai-images): the
// multipart uploads OpenAI takes, checked as it checks them (which models, how many images, which
// types and sizes, the mask, RGBA for `dall-e-2`), answered with pictures made from the input
// (edit.ts) — the composition kept, visibly changed — as base64 or as a URL; a streamed edit
// answers `image_edit.partial_image` and `image_edit.completed` events.
import type { Ctx } from '../context.js';
import { badRequest } from '../errors.js';
import { applyLatency, eventFrame, type Frame, sendJson, sendStream } from '../respond.js';
import { checkAuth } from '../text/openai-request.js';
import { countTokens } from '../text/tokens.js';
import { type EditRegion, editPicture, partialPicture, variationPicture } from './edit.js';
import { FAMILIES, GPT_IMAGE_AUTO, GPT_IMAGE_OUTPUT_TOKENS, type ImageFamily } from './families.js';
import { imageKind, startingPicture } from './input.js';
import { keepMade } from './made.js';
import { decodePng, type Raster, rasterToPng } from './raster.js';
import { imageSize } from './size.js';

type Form = Map<string, (string | File)[]>;

const MIB = 1024 * 1024;

async function readForm(ctx: Ctx): Promise<Form> {
  const contentType = ctx.req.headers['content-type'] ?? '';
  if (!/^multipart\/form-data/i.test(contentType)) {
    throw badRequest(
      "Invalid Content-Type header (application/json), expected multipart/form-data. (HINT: If you're using curl, you can pass -F 'key=value' instead.)",
    );
  }
  let data: FormData;
  try {
    data = await new Request('http://sim.invalid/', {
      method: 'POST',
      headers: { 'content-type': contentType },
      body: new Uint8Array(ctx.rawBody),
    }).formData();
  } catch {
    throw badRequest('Could not parse multipart form');
  }
  const form: Form = new Map();
  for (const [name, value] of data.entries()) form.set(name, [...(form.get(name) ?? []), value]);
  return form;
}

function text(form: Form, name: string): string | undefined {
  const value = form.get(name)?.[0];
  return typeof value === 'string' ? value : undefined;
}

function integer(form: Form, name: string, min: number, max: number): number | undefined {
  const raw = text(form, name);
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (!Number.isInteger(value)) {
    throw badRequest(
      `Invalid type for '${name}': expected an integer, but got a string instead.`,
      name,
      'invalid_type',
    );
  }
  if (value < min || value > max) {
    throw badRequest(
      `Invalid '${name}': expected a value between ${min} and ${max}, but got ${value} instead.`,
      name,
      'invalid_value',
    );
  }
  return value;
}

function oneOf(form: Form, name: string, allowed: readonly string[]): string | undefined {
  const value = text(form, name);
  if (value === undefined) return undefined;
  if (!allowed.includes(value)) {
    const list = allowed.map((v) => `'${v}'`).join(', ');
    throw badRequest(
      `Invalid value: '${value}'. Supported values are: ${list}.`,
      name,
      'invalid_value',
    );
  }
  return value;
}

async function files(form: Form, names: string[]): Promise<Buffer[]> {
  const found = names.flatMap((name) => form.get(name) ?? []);
  return Promise.all(
    found.map(async (value) => {
      if (typeof value === 'string')
        throw badRequest("Invalid type for 'image': expected a file.", 'image', 'invalid_type');
      return Buffer.from(await value.arrayBuffer());
    }),
  );
}

function checkFields(form: Form, allowed: readonly string[]): void {
  for (const name of form.keys()) {
    if (!allowed.includes(name))
      throw badRequest(`Unknown parameter: '${name}'.`, name, 'unknown_parameter');
  }
}

/** The family of an edit's model: the GPT image models and `dall-e-2` edit; nothing else does. */
function editFamily(model: string): ImageFamily {
  if (model === 'dall-e-2') return FAMILIES['dall-e-2'];
  if (model.startsWith('gpt-image-') || model === 'chatgpt-image-latest')
    return FAMILIES['gpt-image'];
  throw badRequest(
    `Invalid value: '${model}'. Value must be 'dall-e-2' or a GPT image model.`,
    'model',
    'invalid_value',
  );
}

/** `dall-e-2`'s rule for its one input image (edits and variations alike). */
function checkDallE2Image(bytes: Buffer, field: string): Raster {
  if (imageKind(bytes) !== 'png')
    throw badRequest(
      `Invalid input image - format must be in ['png'].`,
      field,
      'invalid_image_format',
    );
  if (bytes.length >= 4 * MIB)
    throw badRequest(
      'Invalid input image - image must be less than 4 MB.',
      field,
      'image_too_large',
    );
  const picture = decodePng(bytes);
  if (!picture)
    throw badRequest(
      'Invalid image file or mode for image 1, please check your image file.',
      field,
      'invalid_image',
    );
  if (picture.width !== picture.height)
    throw badRequest('Invalid input image - image must be square.', field, 'invalid_image');
  return picture;
}

function hasTransparency(picture: Raster): boolean {
  for (let i = 3; i < picture.pixels.length; i += 4) if (picture.pixels[i]! < 255) return true;
  return false;
}

/** The output size of a GPT image edit at `auto`: the standard size nearest the input's shape. */
function autoSize(bytes: Buffer): string {
  const size = imageSize(bytes);
  if (!size) return GPT_IMAGE_AUTO.size;
  if (size.width > size.height * 1.2) return '1536x1024';
  if (size.height > size.width * 1.2) return '1024x1536';
  return '1024x1024';
}

/** Image input tokens of a GPT image edit: 65 plus 129 per 512-pixel tile, as for vision input. */
function imageTokens(images: Buffer[]): number {
  let tokens = 0;
  for (const bytes of images) {
    const { width, height } = imageSize(bytes) ?? { width: 1024, height: 1024 };
    tokens += 65 + 129 * Math.ceil(width / 512) * Math.ceil(height / 512);
  }
  return tokens;
}

interface EditJob {
  family: ImageFamily;
  prompt: string;
  n: number;
  width: number;
  height: number;
  size: string;
  quality: string;
  transparent: boolean;
  responseFormat: 'url' | 'b64_json';
  start: Raster;
  region: EditRegion;
  images: Buffer[];
  partialImages: number | null;
}

/** The fields of an edit for a model family. */
function editFields(gpt: boolean): string[] {
  const common = ['image', 'image[]', 'mask', 'prompt', 'model', 'n', 'size', 'quality', 'user'];
  const own = gpt
    ? [
        'background',
        'output_format',
        'output_compression',
        'input_fidelity',
        'stream',
        'partial_images',
      ]
    : ['response_format'];
  return [...common, ...own];
}

function readEditPrompt(form: Form, family: ImageFamily): string {
  const prompt = text(form, 'prompt');
  if (!prompt) {
    throw badRequest(
      "Missing required parameter: 'prompt'.",
      'prompt',
      'missing_required_parameter',
    );
  }
  if (prompt.length > family.maxPromptLength) {
    throw badRequest(
      `Invalid 'prompt': string too long. Expected a string with maximum length ${family.maxPromptLength}, but got a string with length ${prompt.length} instead.`,
      'prompt',
      'string_above_max_length',
    );
  }
  return prompt;
}

/** The GPT image models' inputs: up to 16 PNG, JPEG or WebP images under 50 MB; all edited. */
function gptImageStart(images: Buffer[]): { start: Raster; region: EditRegion } {
  if (images.length > 16) {
    throw badRequest(
      'Too many images: at most 16 may be edited at once.',
      'image',
      'invalid_value',
    );
  }
  for (const bytes of images) {
    const kind = imageKind(bytes);
    if (kind !== 'png' && kind !== 'jpeg' && kind !== 'webp') {
      throw badRequest(
        `Invalid file 'image': unsupported mimetype. Supported file formats are 'image/jpeg', 'image/png', and 'image/webp'.`,
        'image',
        'unsupported_file_mimetype',
      );
    }
    if (bytes.length >= 50 * MIB) {
      throw badRequest(
        'Invalid input image - image must be less than 50 MB.',
        'image',
        'image_too_large',
      );
    }
  }
  return { start: startingPicture(images[0]!), region: { kind: 'all' } };
}

/** `dall-e-2`'s input: one square PNG, drawn on where it is transparent unless a mask comes. */
function dallE2Start(images: Buffer[], masked: boolean): { start: Raster; region: EditRegion } {
  if (images.length > 1) throw badRequest('dall-e-2 edits one image.', 'image', 'invalid_value');
  const start = checkDallE2Image(images[0]!, 'image');
  if (!masked && !hasTransparency(start)) {
    throw badRequest(
      "Invalid input image - format must be in ['RGBA', 'LA', 'L'], got RGB.",
      'image',
      'invalid_image_format',
    );
  }
  return { start, region: { kind: 'transparent' } };
}

/** The mask: a PNG with alpha, the first image's size; its transparent pixels are edited. */
function maskRegion(mask: Buffer, start: Raster): EditRegion {
  const picture = imageKind(mask) === 'png' ? decodePng(mask) : null;
  if (!picture || !hasTransparency(picture)) {
    throw badRequest(
      'Invalid mask image - the mask must be a PNG with an alpha channel.',
      'mask',
      'invalid_image',
    );
  }
  if (picture.width !== start.width || picture.height !== start.height) {
    throw badRequest(
      'Invalid mask image - mask size does not match image size.',
      'mask',
      'invalid_image',
    );
  }
  return { kind: 'mask', mask: picture };
}

/** Size, quality, format and streaming of an edit, `auto` resolved. */
function editOutput(form: Form, gpt: boolean, first: Buffer) {
  const sizes = gpt
    ? ['auto', '1024x1024', '1536x1024', '1024x1536']
    : ['256x256', '512x512', '1024x1024'];
  const asked = oneOf(form, 'size', sizes) ?? (gpt ? 'auto' : '1024x1024');
  const size = asked === 'auto' ? autoSize(first) : asked;
  const quality = oneOf(
    form,
    'quality',
    gpt ? ['auto', 'low', 'medium', 'high'] : ['standard', 'auto'],
  );
  const format = gpt ? (oneOf(form, 'output_format', ['png', 'jpeg', 'webp']) ?? 'png') : 'png';
  if (format !== 'png')
    throw badRequest('The simulator edits into PNG only.', 'output_format', 'invalid_value');
  const background = gpt ? oneOf(form, 'background', ['transparent', 'opaque', 'auto']) : undefined;
  if (gpt) oneOf(form, 'input_fidelity', ['high', 'low']);
  const stream = gpt && oneOf(form, 'stream', ['true', 'false']) === 'true';
  const responseFormat = gpt
    ? 'b64_json'
    : ((oneOf(form, 'response_format', ['url', 'b64_json']) as 'url' | 'b64_json' | undefined) ??
      'url');
  const [width = 1024, height = 1024] = size.split('x').map(Number);
  return {
    size,
    width,
    height,
    quality: gpt
      ? quality === undefined || quality === 'auto'
        ? GPT_IMAGE_AUTO.quality
        : quality
      : 'standard',
    transparent: background === 'transparent',
    responseFormat,
    partialImages: stream ? (integer(form, 'partial_images', 0, 3) ?? 0) : null,
  };
}

async function readEdit(ctx: Ctx): Promise<EditJob> {
  checkAuth(ctx);
  const form = await readForm(ctx);
  const family = editFamily(text(form, 'model') ?? 'dall-e-2');
  const gpt = family.name === 'gpt-image';
  checkFields(form, editFields(gpt));
  const images = await files(form, ['image', 'image[]']);
  if (images.length === 0) {
    throw badRequest("Missing required parameter: 'image'.", 'image', 'missing_required_parameter');
  }
  const [mask] = await files(form, ['mask']);
  const prompt = readEditPrompt(form, family);
  const input = gpt ? gptImageStart(images) : dallE2Start(images, mask !== undefined);
  const region = mask ? maskRegion(mask, input.start) : input.region;
  const n = integer(form, 'n', 1, 10) ?? 1;
  return {
    family,
    prompt,
    n,
    start: input.start,
    region,
    images,
    ...editOutput(form, gpt, images[0]!),
  };
}

/** One answer entry: the picture as base64, or kept and handed out as a URL. */
function entry(ctx: Ctx, png: Buffer, responseFormat: 'url' | 'b64_json'): Record<string, string> {
  if (responseFormat === 'b64_json') return { b64_json: png.toString('base64') };
  return { url: `${ctx.sim.baseUrl}${ctx.provider.prefix}/sim-media/images/${keepMade(png)}` };
}

function usageOf(job: EditJob, images: number) {
  const text_tokens = countTokens(job.prompt);
  const image_tokens = imageTokens(job.images);
  const output_tokens = images * (GPT_IMAGE_OUTPUT_TOKENS[job.quality]?.[job.size] ?? 0);
  return {
    input_tokens: text_tokens + image_tokens,
    input_tokens_details: { text_tokens, image_tokens },
    output_tokens,
    total_tokens: text_tokens + image_tokens + output_tokens,
  };
}

function streamFrames(job: EditJob): Frame[] {
  const frames: Frame[] = [];
  const common = {
    size: job.size,
    quality: job.quality,
    background: job.transparent ? 'transparent' : 'opaque',
    output_format: 'png',
  };
  for (let index = 0; index < job.n; index++) {
    const spec = {
      width: job.width,
      height: job.height,
      prompt: job.prompt,
      index,
      region: job.region,
    };
    for (let stage = 0; stage < (job.partialImages ?? 0); stage++) {
      const partial = rasterToPng(partialPicture(job.start, spec, stage), true).toString('base64');
      frames.push(
        eventFrame('image_edit.partial_image', {
          type: 'image_edit.partial_image',
          b64_json: partial,
          partial_image_index: stage,
          created_at: Math.floor(Date.now() / 1000),
          ...common,
        }),
      );
    }
    const png = rasterToPng(editPicture(job.start, spec), !job.transparent);
    frames.push(
      eventFrame('image_edit.completed', {
        type: 'image_edit.completed',
        b64_json: png.toString('base64'),
        created_at: Math.floor(Date.now() / 1000),
        ...common,
        usage: usageOf(job, 1),
      }),
    );
  }
  return frames;
}

/**
 * @example
 * // POST {sim}/openai/v1/images/edits (multipart: image, prompt, model=gpt-image-1)
 * // → {"created":…,"data":[{"b64_json":"iVBOR…"}],"size":"1024x1024","quality":"medium","usage":{…}}
 */
export async function imageEdits(ctx: Ctx): Promise<void> {
  const job = await readEdit(ctx);
  await applyLatency(ctx);
  if (job.partialImages !== null) {
    await sendStream(ctx, streamFrames(job));
    return;
  }
  const data = Array.from({ length: job.n }, (_, index) => {
    const picture = editPicture(job.start, {
      width: job.width,
      height: job.height,
      prompt: job.prompt,
      index,
      region: job.region,
    });
    return entry(ctx, rasterToPng(picture, !job.transparent), job.responseFormat);
  });
  const extra =
    job.family.name === 'gpt-image'
      ? {
          background: job.transparent ? 'transparent' : 'opaque',
          output_format: 'png',
          quality: job.quality,
          size: job.size,
          usage: usageOf(job, job.n),
        }
      : {};
  sendJson(ctx, 200, { created: Math.floor(Date.now() / 1000), data, ...extra });
}

/**
 * @example
 * // POST {sim}/openai/v1/images/variations (multipart: image, n=2, size=512x512)
 * // → {"created":…,"data":[{"url":"…/sim-media/images/made-….png"},{…}]}
 */
export async function imageVariations(ctx: Ctx): Promise<void> {
  checkAuth(ctx);
  const form = await readForm(ctx);
  checkFields(form, ['image', 'model', 'n', 'response_format', 'size', 'user']);
  const model = text(form, 'model') ?? 'dall-e-2';
  if (model !== 'dall-e-2') {
    throw badRequest(
      `Invalid value: '${model}'. Value must be 'dall-e-2'.`,
      'model',
      'invalid_value',
    );
  }
  const [image] = await files(form, ['image']);
  if (!image)
    throw badRequest("Missing required parameter: 'image'.", 'image', 'missing_required_parameter');
  const start = checkDallE2Image(image, 'image');
  const n = integer(form, 'n', 1, 10) ?? 1;
  const size = oneOf(form, 'size', ['256x256', '512x512', '1024x1024']) ?? '1024x1024';
  const responseFormat = (oneOf(form, 'response_format', ['url', 'b64_json']) ?? 'url') as
    | 'url'
    | 'b64_json';
  const [width = 1024, height = 1024] = size.split('x').map(Number);
  await applyLatency(ctx);
  const data = Array.from({ length: n }, (_, index) =>
    entry(ctx, rasterToPng(variationPicture(start, width, height, index), true), responseFormat),
  );
  sendJson(ctx, 200, { created: Math.floor(Date.now() / 1000), data });
}
