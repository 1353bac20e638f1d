/**
 * Black Forest Labs FLUX Kontext adapter — wire: docs/providers.md#15-black-forest-labs-flux.
 * Asynchronous upstream, synchronous answer: `POST {base}/{model}` with the key in `x-key`
 * submits (the prompt, the input images as base64 in `input_image`, `input_image_2`, …, the size
 * as an aspect ratio), then the `polling_url` it answers is polled until the task is `Ready`, and
 * the image is downloaded from its signed `result.sample` URL (valid for minutes: fetched at once).
 * The key goes only to the provider's own hosts.
 */
import { UpstreamError } from '../text/types.js';
import { aspectRatioOf } from './aspect.js';
import { badAnswer, IMAGE_TIMEOUTS, imageFromBytes, ProviderHttp } from './http.js';
import type { ImageJob, ImageProvider, UpstreamImages } from './types.js';

export interface FluxImageProviderOptions {
  name: string;
  /** `https://api.bfl.ai/v1`, or `{sim}/bfl/v1`. */
  baseUrl: string;
  apiKey: string;
  /** Between two polls (the provider's own examples poll every half second). */
  pollIntervalMs?: number;
}

/** Statuses that end a task without an image the client could get by trying elsewhere. */
const MODERATED = new Set(['Request Moderated', 'Content Moderated']);
const FAILED = new Set(['Error', 'Failed', 'Task not found']);

function body(job: ImageJob): Record<string, unknown> {
  const out: Record<string, unknown> = { prompt: job.prompt, output_format: 'png' };
  const ratio = aspectRatioOf(job.size);
  if (ratio) out.aspect_ratio = ratio;
  for (const [i, image] of job.images.entries()) {
    out[i === 0 ? 'input_image' : `input_image_${i + 1}`] = image.bytes.toString('base64');
  }
  return out;
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(new UpstreamError('aborted', 'The request was aborted.'));
      },
      { once: true },
    );
  });

/**
 * @example
 * const flux = new FluxImageProvider({ name: 'bfl', baseUrl: 'https://api.bfl.ai/v1', apiKey });
 */
export class FluxImageProvider implements ImageProvider {
  readonly name: string;
  private readonly http: ProviderHttp;
  private readonly base: URL;
  private readonly pollIntervalMs: number;

  constructor(options: FluxImageProviderOptions) {
    this.name = options.name;
    this.base = new URL(options.baseUrl);
    this.pollIntervalMs = options.pollIntervalMs ?? 500;
    this.http = new ProviderHttp(
      options.name,
      options.baseUrl,
      { 'x-key': options.apiKey },
      IMAGE_TIMEOUTS,
    );
  }

  async run(job: ImageJob, signal: AbortSignal): Promise<UpstreamImages> {
    const path = `/${encodeURIComponent(job.model)}`;
    const submitted = (await this.http.send('POST', path, { json: body(job) }, signal)) as {
      polling_url?: unknown;
    };
    const pollingUrl = submitted?.polling_url;
    if (typeof pollingUrl !== 'string' || !this.ownUrl(pollingUrl)) {
      throw badAnswer(this.name, 'a task without a polling URL of its own');
    }
    const sample = await this.waitForSample(pollingUrl, signal);
    const bytes = await this.http.download(sample, signal);
    return { created: Math.floor(Date.now() / 1000), images: [imageFromBytes(bytes, this.name)] };
  }

  close(): Promise<void> {
    return this.http.close();
  }

  /** Polls until `Ready` (the sample's URL), a final failure, or the image deadline. */
  private async waitForSample(pollingUrl: string, signal: AbortSignal): Promise<string> {
    const deadline = Date.now() + IMAGE_TIMEOUTS.firstByteMs;
    for (;;) {
      const task = (await this.http.getJson(pollingUrl, signal)) as {
        status?: unknown;
        result?: { sample?: unknown };
      };
      const status = String(task?.status ?? '');
      if (status === 'Ready') {
        const sample = task.result?.sample;
        if (typeof sample !== 'string' || !this.ownUrl(sample)) {
          throw badAnswer(this.name, 'a finished task without an image URL of its own');
        }
        return sample;
      }
      if (MODERATED.has(status)) {
        throw new UpstreamError('status', `${this.name} refused the request (${status}).`, 400);
      }
      if (FAILED.has(status)) throw badAnswer(this.name, `a failed task (${status})`);
      if (Date.now() + this.pollIntervalMs > deadline) {
        throw new UpstreamError('timeout', `${this.name} did not finish the image in time.`);
      }
      await sleep(this.pollIntervalMs, signal);
    }
  }

  /** The provider's own hosts: the base URL's origin, or https on bfl.ai (its regional hosts). */
  private ownUrl(raw: string): boolean {
    try {
      const url = new URL(raw);
      if (url.origin === this.base.origin) return true;
      return (
        url.protocol === 'https:' && (url.hostname === 'bfl.ai' || url.hostname.endsWith('.bfl.ai'))
      );
    } catch {
      return false;
    }
  }
}
