/**
 * Gemini image models adapter (`gemini-2.5-flash-image`) — wire: docs/providers.md#13-gemini-images.
 * `POST {base}/models/{model}:generateContent` with the key in `x-goog-api-key`: one user turn of
 * the prompt and the input images as inline parts, image output only, the size as an aspect
 * ratio. The answer's inline image parts are the images; a prompt the model's safety filters
 * stop comes back without one, which is the client's 400.
 */
import { UpstreamError } from '../text/types.js';
import { aspectRatioOf } from './aspect.js';
import { badAnswer, IMAGE_TIMEOUTS, imageFromBase64, ProviderHttp } from './http.js';
import type { ImageJob, ImageProvider, UpstreamImages } from './types.js';

export interface GeminiImageProviderOptions {
  name: string;
  /** `https://generativelanguage.googleapis.com/v1beta`, or `{sim}/gemini/v1beta`. */
  baseUrl: string;
  apiKey: string;
}

/** Why a candidate ends without an image that failover cannot change: the prompt or an input. */
const REFUSALS = new Set([
  'SAFETY',
  'IMAGE_SAFETY',
  'PROHIBITED_CONTENT',
  'BLOCKLIST',
  'SPII',
  'RECITATION',
  'IMAGE_PROHIBITED_CONTENT',
]);

interface Part {
  text?: string;
  inlineData?: { mimeType?: string; data?: string };
  inline_data?: { mime_type?: string; data?: string };
}

function body(job: ImageJob): Record<string, unknown> {
  const parts: Part[] = [{ text: job.prompt }];
  for (const image of job.images) {
    parts.push({ inlineData: { mimeType: image.type.mime, data: image.bytes.toString('base64') } });
  }
  const aspectRatio = aspectRatioOf(job.size);
  return {
    contents: [{ role: 'user', parts }],
    generationConfig: {
      responseModalities: ['IMAGE'],
      ...(aspectRatio ? { imageConfig: { aspectRatio } } : {}),
    },
  };
}

function readAnswer(json: unknown, provider: string): UpstreamImages {
  const answer = (json ?? {}) as {
    candidates?: { content?: { parts?: Part[] }; finishReason?: string }[];
    promptFeedback?: { blockReason?: string };
    usageMetadata?: {
      promptTokenCount?: number;
      candidatesTokenCount?: number;
      totalTokenCount?: number;
    };
  };
  const blocked = answer.promptFeedback?.blockReason;
  if (blocked)
    throw new UpstreamError('status', `${provider} blocked the prompt (${blocked}).`, 400);
  const candidate = answer.candidates?.[0];
  const images = (candidate?.content?.parts ?? []).flatMap((part) => {
    const data = part.inlineData?.data ?? part.inline_data?.data;
    return typeof data === 'string' ? [imageFromBase64(data, provider)] : [];
  });
  if (images.length === 0) {
    const reason = candidate?.finishReason;
    if (reason && REFUSALS.has(reason)) {
      throw new UpstreamError('status', `${provider} made no image (${reason}).`, 400);
    }
    throw badAnswer(provider, `without an image${reason ? ` (${reason})` : ''}`);
  }
  const usage = answer.usageMetadata;
  const result: UpstreamImages = {
    created: Math.floor(Date.now() / 1000),
    images: images.slice(0, 1),
  };
  if (
    usage &&
    Number.isInteger(usage.promptTokenCount) &&
    Number.isInteger(usage.candidatesTokenCount)
  ) {
    const input = usage.promptTokenCount!;
    const output = usage.candidatesTokenCount!;
    result.usage = { input_tokens: input, output_tokens: output, total_tokens: input + output };
  }
  return result;
}

/**
 * @example
 * const gemini = new GeminiImageProvider({ name: 'gemini', baseUrl: 'https://generativelanguage.googleapis.com/v1beta', apiKey });
 */
export class GeminiImageProvider implements ImageProvider {
  readonly name: string;
  private readonly http: ProviderHttp;

  constructor(options: GeminiImageProviderOptions) {
    this.name = options.name;
    this.http = new ProviderHttp(
      options.name,
      options.baseUrl,
      { 'x-goog-api-key': options.apiKey },
      IMAGE_TIMEOUTS,
    );
  }

  async run(job: ImageJob, signal: AbortSignal): Promise<UpstreamImages> {
    const path = `/models/${encodeURIComponent(job.model)}:generateContent`;
    const json = await this.http.send('POST', path, { json: body(job) }, signal);
    return readAnswer(json, this.name);
  }

  close(): Promise<void> {
    return this.http.close();
  }
}
