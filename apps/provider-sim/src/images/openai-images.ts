// `POST /images/generations` and the URLs it hands out (docs/providers.md#12-openai-images): a real
// image per `n`, drawn from the prompt (picture.ts), as base64 or as a URL the simulator serves;
// `usage` and the resolved size and quality for the GPT image models, `revised_prompt` for
// `dall-e-3`.
import type { Ctx } from '../context.js';
import { HttpError } from '../errors.js';
import { applyLatency, sendBytes, sendJson } from '../respond.js';
import type { RouteDef } from '../router.js';
import { countTokens } from '../text/tokens.js';
import { GPT_IMAGE_OUTPUT_TOKENS } from './families.js';
import { madeBytes } from './made.js';
import { pictureSeed, renderPicture } from './picture.js';
import { type ImageJob, readImageRequest } from './request.js';

/** `{seed hex}-{width}x{height}.png`: everything needed to draw a served image again. */
const MEDIA_NAME = /^([0-9a-f]{1,8})-(\d{1,4})x(\d{1,4})\.png$/;

function dimensions(size: string): { width: number; height: number } {
  const [width = 1024, height = 1024] = size.split('x').map(Number);
  return { width, height };
}

/** One entry of `data`. */
function imageEntry(ctx: Ctx, job: ImageJob, index: number): Record<string, string> {
  const seed = pictureSeed(job.prompt, index);
  const entry: Record<string, string> = {};
  if (job.responseFormat === 'url') {
    const name = `${seed.toString(16)}-${job.size}.png`;
    entry.url = `${ctx.sim.baseUrl}${ctx.provider.prefix}/sim-media/images/${name}`;
  } else {
    const { width, height } = dimensions(job.size);
    const spec = { seed, width, height, format: job.format, transparent: job.transparent };
    entry.b64_json = renderPicture(spec).toString('base64');
  }
  if (job.family.name === 'dall-e-3') entry.revised_prompt = `${job.prompt}, in fine detail`;
  return entry;
}

/** What the GPT image models add: the size and quality they drew, and the tokens. */
function gptImageFields(job: ImageJob): Record<string, unknown> {
  const inputTokens = countTokens(job.prompt);
  const outputTokens = job.n * (GPT_IMAGE_OUTPUT_TOKENS[job.quality]?.[job.size] ?? 0);
  return {
    background: job.transparent ? 'transparent' : 'opaque',
    output_format: job.format,
    quality: job.quality,
    size: job.size,
    usage: {
      input_tokens: inputTokens,
      input_tokens_details: { image_tokens: 0, text_tokens: inputTokens },
      output_tokens: outputTokens,
      total_tokens: inputTokens + outputTokens,
    },
  };
}

/**
 * @example
 * // POST {sim}/openai/v1/images/generations {"model":"gpt-image-1","prompt":"a cat"}
 * // → {"created":…,"data":[{"b64_json":"iVBOR…"}],"size":"1024x1024","quality":"medium","usage":{…}}
 */
export async function imageGenerations(ctx: Ctx): Promise<void> {
  const job = readImageRequest(ctx);
  await applyLatency(ctx);
  const data = Array.from({ length: job.n }, (_, index) => imageEntry(ctx, job, index));
  const extra = job.family.name === 'gpt-image' ? gptImageFields(job) : {};
  sendJson(ctx, 200, { created: Math.floor(Date.now() / 1000), data, ...extra });
}

/** `GET {prefix}/sim-media/images/{name}`: a URL handed out above (no key needed, as upstream). */
export const imageMediaRoute: RouteDef = {
  method: 'GET',
  path: '/sim-media/images/{file}',
  name: 'GET /openai/v1/sim-media/images/{name}.png',
  handler: (ctx) => {
    const made = madeBytes(ctx.params[0] ?? '');
    if (made) {
      sendBytes(ctx, 200, 'image/png', made);
      return;
    }
    const match = MEDIA_NAME.exec(ctx.params[0] ?? '');
    if (!match) throw new HttpError({ status: 404, message: 'The requested image does not exist' });
    const spec = {
      seed: Number.parseInt(match[1]!, 16),
      width: Number(match[2]),
      height: Number(match[3]),
      format: 'png' as const,
      transparent: false,
    };
    sendBytes(ctx, 200, 'image/png', renderPicture(spec));
  },
};
