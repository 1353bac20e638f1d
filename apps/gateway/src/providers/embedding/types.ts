/**
 * The one interface every embedding provider adapter implements: inputs in, one unit-length
 * vector per input out (in input order), in the upstream's own wire protocol. One file per
 * provider beside this one; the wire of each is in docs/providers.md.
 */

/** One request for an upstream, under the deployment's model name. */
export interface EmbeddingJob {
  model: string;
  /** Text, or token ids (only to upstreams whose models take them). */
  inputs: readonly (string | readonly number[])[];
  /** Shorten each vector to this length (models that allow it). */
  dimensions?: number;
  /** An end-user id, passed on where the upstream takes one. */
  user?: string;
}

/** The upstream's vectors, and the input tokens it counted (null where it reports none). */
export interface EmbeddingResult {
  vectors: Float32Array[];
  promptTokens: number | null;
}

/**
 * @example
 * const { vectors } = await provider.embed({ model: 'text-embedding-3-small', inputs: ['hello'] }, signal);
 * vectors[0]!.length; // 1536
 */
export interface EmbeddingProvider {
  readonly name: string;
  /** Resolves with one vector per input; rejects with an UpstreamError. */
  embed(job: EmbeddingJob, signal: AbortSignal): Promise<EmbeddingResult>;
  close(): Promise<void>;
}

/** Scales a vector to unit length in place (a zero vector stays zero). */
export function normalize(vector: Float32Array): Float32Array {
  let sum = 0;
  for (const value of vector) sum += value * value;
  const norm = Math.sqrt(sum);
  if (norm > 0) for (let i = 0; i < vector.length; i++) vector[i] = vector[i]! / norm;
  return vector;
}
