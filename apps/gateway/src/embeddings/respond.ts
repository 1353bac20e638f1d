/**
 * Stage 5: the vectors in OpenAI's list shape, each as numbers or as base64 (little-endian
 * float32, what the `openai` client asks for by default and decodes).
 */
import type { EmbeddingList } from '@modelgate/core';
import type { EmbeddingRequest } from './request.js';

/** A float32 as the shortest decimal that reads back as the same float32 (at most 9 digits). */
function shortest(value: number): number {
  return Number(value.toPrecision(9));
}

/** The vector's float32 values, little-endian, base64-encoded. */
export function encodeVector(vector: Float32Array): string {
  const bytes = Buffer.alloc(vector.length * 4);
  for (let i = 0; i < vector.length; i++) bytes.writeFloatLE(vector[i]!, i * 4);
  return bytes.toString('base64');
}

/**
 * @example
 * embeddingList(request, vectors, 8); // { object: 'list', data: [{ object: 'embedding', index: 0, embedding: [...] }], … }
 */
export function embeddingList(
  request: EmbeddingRequest,
  vectors: readonly Float32Array[],
  promptTokens: number,
): EmbeddingList {
  return {
    object: 'list',
    data: vectors.map((vector, index) => ({
      object: 'embedding',
      index,
      embedding:
        request.encoding === 'base64' ? encodeVector(vector) : Array.from(vector, shortest),
    })),
    model: request.model.spec.id,
    usage: { prompt_tokens: promptTokens, total_tokens: promptTokens },
  };
}
