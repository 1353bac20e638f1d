/**
 * OpenAI images adapter — wire: docs/providers.md#12-openai-images. Generations are JSON
 * (`POST {base}/images/generations`); edits and variations are multipart uploads
 * (`/images/edits`, `/images/variations`), the images as file parts (`image`, or `image[]` for
 * several, as OpenAI's own client sends them). A streamed edit answers server-sent events.
 */
import type { ImagesResponse } from '@modelgate/core';
import { zImagesResponse, zImagesUsage } from '@modelgate/core/zod';
import { badAnswer, IMAGE_TIMEOUTS, imageBlob, imageFromBase64, ProviderHttp } from './http.js';
import { readImageEvents } from './openai-stream.js';
import type {
  ImageJob,
  ImageProvider,
  ImageStreamEvent,
  UpstreamImage,
  UpstreamImages,
} from './types.js';

export interface OpenAiImageProviderOptions {
  name: string;
  /** Ends in `/v1`: `https://api.openai.com/v1`, or `{sim}/openai/v1`. */
  baseUrl: string;
  apiKey: string;
}

const PATHS = {
  generate: '/images/generations',
  edit: '/images/edits',
  variation: '/images/variations',
} as const;

/**
 * The DALL·E models answer a URL that expires unless asked for base64; the GPT image models always
 * answer base64 and refuse the field.
 */
const asksForBase64 = (model: string) => model.startsWith('dall-e');

/** The job's scalar fields under OpenAI's names. */
function fields(job: ImageJob): Record<string, string | number> {
  const out: Record<string, string | number> = { model: job.model, n: job.n, size: job.size };
  if (job.operation !== 'variation') {
    out.prompt = job.prompt;
    out.quality = job.quality;
  }
  Object.assign(out, job.options);
  if (asksForBase64(job.model)) out.response_format = 'b64_json';
  return out;
}

/** An edit or a variation as the multipart form OpenAI takes. */
function form(job: ImageJob, stream: boolean): FormData {
  const body = new FormData();
  for (const [name, value] of Object.entries(fields(job))) body.append(name, String(value));
  const field = job.images.length > 1 ? 'image[]' : 'image';
  for (const [i, image] of job.images.entries()) {
    body.append(field, imageBlob(image), `image-${i + 1}.${image.type.ext}`);
  }
  if (job.mask) body.append('mask', imageBlob(job.mask), 'mask.png');
  if (stream) body.append('stream', 'true');
  return body;
}

/** A field kept only when its value is one the spec names (else the client's schema would break). */
function known<T>(
  schema: { safeParse(value: unknown): { success: boolean; data?: T } },
  value: unknown,
): T | undefined {
  const parsed = schema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

function readImage(entry: unknown, provider: string): UpstreamImage {
  const item = (entry ?? {}) as { b64_json?: unknown; revised_prompt?: unknown };
  if (typeof item.b64_json !== 'string') throw badAnswer(provider, 'an image without b64_json');
  const image = imageFromBase64(item.b64_json, provider);
  if (typeof item.revised_prompt === 'string') image.revisedPrompt = item.revised_prompt;
  return image;
}

function readAnswer(json: unknown, n: number, provider: string): UpstreamImages {
  const answer = (json ?? {}) as Record<string, unknown>;
  if (!Array.isArray(answer.data) || answer.data.length === 0) {
    throw badAnswer(provider, 'without images');
  }
  const shape = zImagesResponse.shape;
  return {
    created: Number.isInteger(answer.created)
      ? Number(answer.created)
      : Math.floor(Date.now() / 1000),
    images: answer.data.slice(0, n).map((entry) => readImage(entry, provider)),
    size: known<ImagesResponse['size']>(shape.size, answer.size),
    quality: known(shape.quality, answer.quality),
    background: known(shape.background, answer.background),
    outputFormat: known(shape.output_format, answer.output_format),
    usage: known(zImagesUsage, answer.usage),
  };
}

/**
 * @example
 * const openai = new OpenAiImageProvider({ name: 'openai', baseUrl: 'https://api.openai.com/v1', apiKey });
 */
export class OpenAiImageProvider implements ImageProvider {
  readonly name: string;
  private readonly http: ProviderHttp;

  constructor(options: OpenAiImageProviderOptions) {
    this.name = options.name;
    this.http = new ProviderHttp(
      options.name,
      options.baseUrl,
      {
        authorization: `Bearer ${options.apiKey}`,
      },
      IMAGE_TIMEOUTS,
    );
  }

  async run(job: ImageJob, signal: AbortSignal): Promise<UpstreamImages> {
    const body = job.operation === 'generate' ? { json: fields(job) } : { form: form(job, false) };
    const json = await this.http.send('POST', PATHS[job.operation], body, signal);
    return readAnswer(json, job.n, this.name);
  }

  async stream(job: ImageJob, signal: AbortSignal): Promise<AsyncIterable<ImageStreamEvent>> {
    const body = await this.http.openStream(PATHS.edit, { form: form(job, true) }, signal);
    return readImageEvents(body, this.name);
  }

  close(): Promise<void> {
    return this.http.close();
  }
}
