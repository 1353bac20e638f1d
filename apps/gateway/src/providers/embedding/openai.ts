/**
 * OpenAI embeddings adapter — wire: docs/providers.md#16-openai-embeddings.
 * `POST {base}/embeddings` with a bearer key; the vectors are asked for as base64 (little-endian
 * float32: a quarter of the bytes of JSON numbers, and exact) and decoded here.
 */
import { badAnswer, ProviderHttp } from '../provider-http.js';
import type { ProviderTimeouts } from '../text/types.js';
import type { EmbeddingJob, EmbeddingProvider, EmbeddingResult } from './types.js';

/** An embedding answer comes whole and fast; a big batch still takes seconds. */
export const EMBEDDING_TIMEOUTS: ProviderTimeouts = {
  connectMs: 5_000,
  firstByteMs: 60_000,
  idleMs: 30_000,
};

export interface OpenAiEmbeddingProviderOptions {
  name: string;
  /** Ends in `/v1`. */
  baseUrl: string;
  apiKey: string;
}

/** A base64 vector of little-endian float32 values. */
export function decodeVector(base64: string): Float32Array {
  const bytes = Buffer.from(base64, 'base64');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const vector = new Float32Array(Math.floor(bytes.byteLength / 4));
  for (let i = 0; i < vector.length; i++) vector[i] = view.getFloat32(i * 4, true);
  return vector;
}

function readAnswer(json: unknown, count: number, provider: string): EmbeddingResult {
  const answer = (json ?? {}) as {
    data?: { index?: unknown; embedding?: unknown }[];
    usage?: { prompt_tokens?: unknown };
  };
  const vectors: Float32Array[] = new Array(count);
  for (const entry of answer.data ?? []) {
    const index = entry?.index;
    if (typeof index !== 'number' || index < 0 || index >= count) continue;
    const { embedding } = entry;
    if (typeof embedding === 'string') vectors[index] = decodeVector(embedding);
    else if (Array.isArray(embedding)) vectors[index] = Float32Array.from(embedding as number[]);
  }
  for (let i = 0; i < count; i++) {
    if (!vectors[i]) throw badAnswer(provider, `without a vector for input ${i}`);
  }
  const tokens = answer.usage?.prompt_tokens;
  return { vectors, promptTokens: Number.isInteger(tokens) ? Number(tokens) : null };
}

/**
 * @example
 * const openai = new OpenAiEmbeddingProvider({ name: 'openai', baseUrl: 'https://api.openai.com/v1', apiKey });
 */
export class OpenAiEmbeddingProvider implements EmbeddingProvider {
  readonly name: string;
  private readonly http: ProviderHttp;

  constructor(options: OpenAiEmbeddingProviderOptions) {
    this.name = options.name;
    this.http = new ProviderHttp(
      options.name,
      options.baseUrl,
      { authorization: `Bearer ${options.apiKey}` },
      EMBEDDING_TIMEOUTS,
    );
  }

  async embed(job: EmbeddingJob, signal: AbortSignal): Promise<EmbeddingResult> {
    const body: Record<string, unknown> = {
      model: job.model,
      input: job.inputs,
      encoding_format: 'base64',
    };
    if (job.dimensions !== undefined) body.dimensions = job.dimensions;
    if (job.user !== undefined) body.user = job.user;
    const json = await this.http.send('POST', '/embeddings', { json: body }, signal);
    return readAnswer(json, job.inputs.length, this.name);
  }

  close(): Promise<void> {
    return this.http.close();
  }
}
