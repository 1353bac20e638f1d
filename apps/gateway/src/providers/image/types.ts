/**
 * The one interface every image provider adapter implements: a job in the gateway's own terms
 * (OpenAI's field names and values, already checked against the model's table) goes out in the
 * upstream's wire protocol, and its answer comes back as decoded, typed images. One file per
 * provider beside this one; the wire of each is in docs/providers.md.
 */
import type { ImagesResponse, ImagesUsage } from '@modelgate/core';
import type { ImageType } from '../../files/index.js';

/** What a request asks of an image model. */
export type ImageOperation = 'generate' | 'edit' | 'variation';

/** An input image of an edit or a variation: its bytes, typed by content. */
export interface InputImage {
  bytes: Buffer;
  type: ImageType;
  /** The request field it came from (`image.0`, `images.1.file_id`, `mask`): for error messages. */
  param: string;
}

/** One job for an upstream: what the route asked, under the deployment's model name. */
export interface ImageJob {
  operation: ImageOperation;
  /** The upstream's model name. */
  model: string;
  /** Empty for a variation. */
  prompt: string;
  n: number;
  /** `WIDTHxHEIGHT`, or `auto` where the model chooses. */
  size: string;
  /** A concrete quality, or `auto` where the model chooses. */
  quality: string;
  /** Fields passed as they came (OpenAI's names): style, output options, input_fidelity, user. */
  options: Readonly<Record<string, string | number>>;
  /** The input images of an edit or a variation, in order. */
  images: readonly InputImage[];
  mask?: InputImage;
}

/** One image the upstream made. */
export interface UpstreamImage {
  bytes: Buffer;
  /** The bytes as base64 (answered as it is for `b64_json`). */
  base64: string;
  type: ImageType;
  revisedPrompt?: string;
}

/** What came back: the images (at most `n`) and what the upstream says about them. */
export interface UpstreamImages {
  created: number;
  images: UpstreamImage[];
  size?: ImagesResponse['size'];
  quality?: ImagesResponse['quality'];
  background?: ImagesResponse['background'];
  outputFormat?: ImagesResponse['output_format'];
  usage?: ImagesUsage;
}

/**
 * A streamed edit's events as the upstream sends them (OpenAI's `image_edit.*`), already parsed.
 * `completed` carries one finished image.
 */
export type ImageStreamEvent =
  | { kind: 'partial'; event: Record<string, unknown>; image: UpstreamImage }
  | {
      kind: 'completed';
      event: Record<string, unknown>;
      image: UpstreamImage;
      usage?: ImagesUsage;
    };

/**
 * An image provider adapter.
 *
 * @example
 * const answer = await provider.run({ operation: 'generate', model: 'dall-e-3', prompt: 'a cat', n: 1, size: '1024x1024', quality: 'standard', options: {}, images: [] }, signal);
 * answer.images[0]?.type.mime; // 'image/png'
 */
export interface ImageProvider {
  readonly name: string;
  /**
   * Resolves with the decoded images of a 2xx; rejects with an UpstreamError otherwise (a 502 for
   * an answer without readable images: another deployment may do better).
   */
  run(job: ImageJob, signal: AbortSignal): Promise<UpstreamImages>;
  /**
   * A streamed edit: resolves once the upstream has answered 2xx (from then on there is no
   * failover), with its events as they come. Present only on providers whose models stream.
   */
  stream?(job: ImageJob, signal: AbortSignal): Promise<AsyncIterable<ImageStreamEvent>>;
  close(): Promise<void>;
}
