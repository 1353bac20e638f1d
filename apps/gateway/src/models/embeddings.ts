/**
 * The embedding models: which provider serves each, what each takes (shown at GET /v1/models,
 * enforced before anything is reserved) and its price per million input tokens, in credits as
 * the providers list them in dollars (docs/providers.md §16, §17).
 */
import type { EmbeddingModelCapabilities } from '@modelgate/core';

export type EmbeddingProviderName = 'openai' | 'gemini';

export interface EmbeddingModelSpec {
  id: string;
  ownedBy: string;
  provider: EmbeddingProviderName;
  upstreamModel: string;
  /** The vectors' length when `dimensions` is not sent. */
  dimensions: number;
  /** The `dimensions` it takes; null: the field is refused. */
  dimensionsRange: { min: number; max: number } | null;
  maxInputs: number;
  maxInputTokens: number;
  /** Whether `input` may be token ids (OpenAI's tokenizer: only OpenAI's models). */
  tokenInput: boolean;
  pricePerMillion: number;
}

/**
 * @example
 * EMBEDDING_MODELS['text-embedding-3-small']!.dimensions; // 1536
 */
export const EMBEDDING_MODELS: Readonly<Record<string, EmbeddingModelSpec>> = {
  'text-embedding-3-small': {
    id: 'text-embedding-3-small',
    ownedBy: 'openai',
    provider: 'openai',
    upstreamModel: 'text-embedding-3-small',
    dimensions: 1536,
    dimensionsRange: { min: 1, max: 1536 },
    maxInputs: 2048,
    maxInputTokens: 8191,
    tokenInput: true,
    pricePerMillion: 0.02,
  },
  'text-embedding-3-large': {
    id: 'text-embedding-3-large',
    ownedBy: 'openai',
    provider: 'openai',
    upstreamModel: 'text-embedding-3-large',
    dimensions: 3072,
    dimensionsRange: { min: 1, max: 3072 },
    maxInputs: 2048,
    maxInputTokens: 8191,
    tokenInput: true,
    pricePerMillion: 0.13,
  },
  'text-embedding-ada-002': {
    id: 'text-embedding-ada-002',
    ownedBy: 'openai',
    provider: 'openai',
    upstreamModel: 'text-embedding-ada-002',
    dimensions: 1536,
    dimensionsRange: null,
    maxInputs: 2048,
    maxInputTokens: 8191,
    tokenInput: true,
    pricePerMillion: 0.1,
  },
  'gemini-embedding-001': {
    id: 'gemini-embedding-001',
    ownedBy: 'google',
    provider: 'gemini',
    upstreamModel: 'gemini-embedding-001',
    dimensions: 3072,
    dimensionsRange: { min: 128, max: 3072 },
    maxInputs: 100,
    maxInputTokens: 2048,
    tokenInput: false,
    pricePerMillion: 0.15,
  },
};

/** The embedding model ids: never resolved as text models, even in pass-through mode. */
export const EMBEDDING_MODEL_IDS: ReadonlySet<string> = new Set(Object.keys(EMBEDDING_MODELS));

/** The capabilities object of GET /v1/models. */
export function embeddingCapabilities(spec: EmbeddingModelSpec): EmbeddingModelCapabilities {
  return {
    dimensions: spec.dimensions,
    dimensions_range: spec.dimensionsRange ? { ...spec.dimensionsRange } : null,
    max_inputs: spec.maxInputs,
    max_input_tokens: spec.maxInputTokens,
    token_input: spec.tokenInput,
    price_per_million_tokens: spec.pricePerMillion,
  };
}
