/**
 * Gemini embeddings adapter (`gemini-embedding-001`) — wire: docs/providers.md#17-gemini-embeddings.
 * `POST {base}/models/{model}:batchEmbedContents` with the key in `x-goog-api-key`: one request per
 * input (`content.parts[].text`, `outputDimensionality`). Gemini normalises only its full-length
 * vectors; a shortened one is scaled to unit length here, so every vector the gateway answers has
 * unit length, as OpenAI's do. Gemini reports no token count.
 */
import { badAnswer, ProviderHttp } from '../provider-http.js';
import { EMBEDDING_TIMEOUTS } from './openai.js';
import {
  type EmbeddingJob,
  type EmbeddingProvider,
  type EmbeddingResult,
  normalize,
} from './types.js';

export interface GeminiEmbeddingProviderOptions {
  name: string;
  /** `https://generativelanguage.googleapis.com/v1beta`, or `{sim}/gemini/v1beta`. */
  baseUrl: string;
  apiKey: string;
}

/**
 * @example
 * const gemini = new GeminiEmbeddingProvider({ name: 'gemini', baseUrl: 'https://generativelanguage.googleapis.com/v1beta', apiKey });
 */
export class GeminiEmbeddingProvider implements EmbeddingProvider {
  readonly name: string;
  private readonly http: ProviderHttp;

  constructor(options: GeminiEmbeddingProviderOptions) {
    this.name = options.name;
    this.http = new ProviderHttp(
      options.name,
      options.baseUrl,
      { 'x-goog-api-key': options.apiKey },
      EMBEDDING_TIMEOUTS,
    );
  }

  async embed(job: EmbeddingJob, signal: AbortSignal): Promise<EmbeddingResult> {
    const model = `models/${job.model}`;
    const requests = job.inputs.map((input) => ({
      model,
      content: { parts: [{ text: typeof input === 'string' ? input : '' }] },
      ...(job.dimensions !== undefined ? { outputDimensionality: job.dimensions } : {}),
    }));
    const path = `/${model}:batchEmbedContents`;
    const json = (await this.http.send('POST', path, { json: { requests } }, signal)) as {
      embeddings?: { values?: unknown }[];
    };
    const embeddings = json?.embeddings ?? [];
    if (embeddings.length !== job.inputs.length) {
      throw badAnswer(this.name, `${embeddings.length} vectors for ${job.inputs.length} inputs`);
    }
    const vectors = embeddings.map((entry, i) => {
      if (!Array.isArray(entry?.values))
        throw badAnswer(this.name, `without a vector for input ${i}`);
      return normalize(Float32Array.from(entry.values as number[]));
    });
    return { vectors, promptTokens: null };
  }

  close(): Promise<void> {
    return this.http.close();
  }
}
