// wire: docs/providers.md#14-byteplus-seedream — BytePlus ModelArk's image generation API
// (`seedream-4-0-…`): `POST /images/generations` with the input images in `image` (a URL or a
// `data:` URL, one or a list of up to 10), `size` as `1K`/`2K`/`4K` or `WIDTHxHEIGHT` (1280x720
// to 4096x4096 pixels in all, aspect 1/16 to 16), a sequential set of up to 15 images with the
// inputs, `url` or `b64_json`, and `watermark`. Served at {sim}/byteplus/api/v3.
import type { Ctx } from '../context.js';
import { badRequest, HttpError, isRecord } from '../errors.js';
import { applyLatency, sendJson } from '../respond.js';
import type { RouteDef } from '../router.js';
import { requireApiKey } from '../video/common.js';
import { keepMade } from './made.js';
import { pictureFor, refusedPrompt } from './picture-for.js';
import { imageSize } from './size.js';

const MAX_INPUTS = 10;
const MAX_TOTAL_IMAGES = 15;
const FIELDS = [
  'model',
  'prompt',
  'image',
  'size',
  'seed',
  'sequential_image_generation',
  'sequential_image_generation_options',
  'stream',
  'guidance_scale',
  'response_format',
  'watermark',
  'optimize_prompt_options',
  'user',
];
const LEVELS: Record<string, number> = { '1K': 1024, '2K': 2048, '4K': 4096 };

function inputImages(value: unknown): Buffer[] {
  if (value === undefined) return [];
  const list = Array.isArray(value) ? value : [value];
  if (list.length > MAX_INPUTS)
    throw badRequest(`The number of input images exceeds the limit of ${MAX_INPUTS}.`, 'image');
  return list.map((ref) => {
    if (typeof ref !== 'string')
      throw badRequest('The parameter `image` specified in the request is not valid.', 'image');
    const data = /^data:image\/(png|jpeg|jpg|webp|bmp|tiff|gif);base64,(.*)$/is.exec(ref);
    if (data) return Buffer.from(data[2]!, 'base64');
    // A provider on the internet cannot reach the caller's own addresses, nor can the simulator.
    throw badRequest(
      `Failed to download the image from ${ref.slice(0, 64)}.`,
      'image',
      'InvalidParameter.DownloadFailed',
    );
  });
}

/** The output size: a level's square (or the first input's shape at that level), or WxH as sent. */
function outputSize(value: unknown, inputs: Buffer[]): [number, number] {
  const size = value ?? '2048x2048';
  if (typeof size === 'string' && size in LEVELS) {
    const side = LEVELS[size]!;
    const shape = inputs[0] ? imageSize(inputs[0]) : null;
    if (!shape) return [side, side];
    const scale = side / Math.sqrt(shape.width * shape.height);
    return [
      Math.round((shape.width * scale) / 16) * 16,
      Math.round((shape.height * scale) / 16) * 16,
    ];
  }
  const match = typeof size === 'string' ? /^(\d{2,5})x(\d{2,5})$/.exec(size) : null;
  const [width, height] = match ? [Number(match[1]), Number(match[2])] : [0, 0];
  const pixels = width * height;
  if (
    !match ||
    pixels < 1280 * 720 ||
    pixels > 4096 * 4096 ||
    width / height > 16 ||
    height / width > 16
  ) {
    throw badRequest(
      `The parameter \`size\` specified in the request is not valid: ${String(size)}.`,
      'size',
    );
  }
  return [width, height];
}

function imagesToMake(body: Record<string, unknown>, inputs: number): number {
  const mode = body.sequential_image_generation ?? 'disabled';
  if (mode !== 'auto' && mode !== 'disabled') {
    throw badRequest(
      'The parameter `sequential_image_generation` specified in the request is not valid.',
      'sequential_image_generation',
    );
  }
  if (mode === 'disabled') return 1;
  const options = isRecord(body.sequential_image_generation_options)
    ? body.sequential_image_generation_options
    : {};
  const max = options.max_images ?? MAX_TOTAL_IMAGES;
  if (typeof max !== 'number' || !Number.isInteger(max) || max < 1 || max > MAX_TOTAL_IMAGES) {
    throw badRequest(
      'The parameter `sequential_image_generation_options.max_images` specified in the request is not valid.',
      'sequential_image_generation_options.max_images',
    );
  }
  if (inputs + max > MAX_TOTAL_IMAGES) {
    throw badRequest(
      `The number of input images plus max_images must not exceed ${MAX_TOTAL_IMAGES}.`,
      'sequential_image_generation_options.max_images',
    );
  }
  return max;
}

async function generations(ctx: Ctx): Promise<void> {
  requireApiKey(ctx, 'The API key or AK/SK in the request is missing or invalid.');
  if (!isRecord(ctx.body)) throw badRequest('The request body is not valid JSON.');
  const body = ctx.body;
  for (const name of Object.keys(body)) {
    if (!FIELDS.includes(name))
      throw badRequest(`The parameter \`${name}\` specified in the request is not valid.`, name);
  }
  const model = body.model;
  if (typeof model !== 'string' || !model.startsWith('seedream-')) {
    throw new HttpError({
      status: 404,
      code: 'InvalidEndpointOrModel.NotFound',
      message: `The model or endpoint ${String(model)} does not exist or you do not have access to it.`,
    });
  }
  if (typeof body.prompt !== 'string' || body.prompt === '') {
    throw badRequest(
      'The parameter `prompt` specified in the request is required.',
      'prompt',
      'MissingParameter',
    );
  }
  if (body.stream === true) throw badRequest('The simulator does not stream images.', 'stream');
  const inputs = inputImages(body.image);
  const [width, height] = outputSize(body.size, inputs);
  const count = imagesToMake(body, inputs.length);
  const format = body.response_format ?? 'url';
  if (format !== 'url' && format !== 'b64_json') {
    throw badRequest(
      'The parameter `response_format` specified in the request is not valid.',
      'response_format',
    );
  }
  if (refusedPrompt(body.prompt)) {
    throw badRequest(
      'The request failed because the input text may contain sensitive information.',
      'prompt',
      'InputTextSensitiveContentDetected',
    );
  }
  await applyLatency(ctx);
  const data = Array.from({ length: count }, (_, index) => {
    const png = pictureFor({ prompt: body.prompt as string, inputs, width, height, index });
    const size = `${width}x${height}`;
    return format === 'b64_json'
      ? { b64_json: png.toString('base64'), size }
      : { url: `${ctx.sim.baseUrl}${ctx.provider.prefix}/sim-media/images/${keepMade(png)}`, size };
  });
  const tokens = count * Math.round((width * height) / 256);
  sendJson(ctx, 200, {
    model,
    created: Math.floor(Date.now() / 1000),
    data,
    usage: { generated_images: count, output_tokens: tokens, total_tokens: tokens },
  });
}

export const seedreamImageRoutes: RouteDef[] = [
  { method: 'POST', path: '/images/generations', handler: generations },
];
