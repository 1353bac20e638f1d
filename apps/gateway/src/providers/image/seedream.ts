/**
 * BytePlus ModelArk Seedream adapter — wire: docs/providers.md#14-byteplus-seedream.
 * `POST {base}/images/generations` with a bearer key: the prompt, the input images in `image` (a
 * `data:` URL each, as one string or a list), the size (`2K` for `auto`: the model chooses the
 * aspect), several images as a sequential set, base64 answers and no watermark.
 */
import { badAnswer, dataUrl, IMAGE_TIMEOUTS, imageFromBase64, ProviderHttp } from './http.js';
import type { ImageJob, ImageProvider, UpstreamImages } from './types.js';

export interface SeedreamImageProviderOptions {
  name: string;
  /** `https://ark.ap-southeast.bytepluses.com/api/v3`, or `{sim}/byteplus/api/v3`. */
  baseUrl: string;
  apiKey: string;
}

function body(job: ImageJob): Record<string, unknown> {
  const out: Record<string, unknown> = {
    model: job.model,
    prompt: job.prompt,
    size: job.size === 'auto' ? '2K' : job.size,
    response_format: 'b64_json',
    watermark: false,
    sequential_image_generation: job.n > 1 ? 'auto' : 'disabled',
  };
  if (job.n > 1) out.sequential_image_generation_options = { max_images: job.n };
  if (job.images.length === 1) out.image = dataUrl(job.images[0]!);
  if (job.images.length > 1) out.image = job.images.map(dataUrl);
  if (job.options.user !== undefined) out.user = job.options.user;
  return out;
}

function readAnswer(json: unknown, n: number, provider: string): UpstreamImages {
  const answer = (json ?? {}) as {
    created?: unknown;
    data?: { b64_json?: unknown }[];
    usage?: { output_tokens?: unknown; total_tokens?: unknown };
  };
  // In a sequential set an image that failed is an entry with `error` instead of an image.
  const images = (answer.data ?? []).flatMap((entry) =>
    typeof entry?.b64_json === 'string' ? [imageFromBase64(entry.b64_json, provider)] : [],
  );
  if (images.length === 0) throw badAnswer(provider, 'without images');
  const result: UpstreamImages = {
    created: Number.isInteger(answer.created)
      ? Number(answer.created)
      : Math.floor(Date.now() / 1000),
    images: images.slice(0, n),
  };
  const output = answer.usage?.output_tokens;
  if (Number.isInteger(output)) {
    result.usage = { input_tokens: 0, output_tokens: Number(output), total_tokens: Number(output) };
  }
  return result;
}

/**
 * @example
 * const seedream = new SeedreamImageProvider({ name: 'byteplus', baseUrl: 'https://ark.ap-southeast.bytepluses.com/api/v3', apiKey });
 */
export class SeedreamImageProvider implements ImageProvider {
  readonly name: string;
  private readonly http: ProviderHttp;

  constructor(options: SeedreamImageProviderOptions) {
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
    const json = await this.http.send('POST', '/images/generations', { json: body(job) }, signal);
    return readAnswer(json, job.n, this.name);
  }

  close(): Promise<void> {
    return this.http.close();
  }
}
