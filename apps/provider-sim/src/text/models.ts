// The model lists the text list endpoints serve (`GET /openai/v1/models`, `GET /anthropic/v1/models`).
// A real account's list mixes chat models with embeddings, audio, image and moderation models,
// dated snapshots and fine-tunes; the default OpenAI list does too, so a client that filters it
// is exercised against something like the real thing.

/**
 * The ids each list endpoint answers with, in order. The arrays are live: a test may push or
 * remove an id while the simulator runs and the next list request sees it.
 */
export interface TextModelLists {
  openai: string[];
  anthropic: string[];
}

export const DEFAULT_OPENAI_MODELS: readonly string[] = [
  'gpt-4o',
  'gpt-4o-mini',
  'gpt-4.1',
  'gpt-4.1-mini',
  'gpt-4.1-nano',
  'gpt-4.1-2025-04-14',
  'o3-mini',
  'gpt-3.5-turbo-instruct',
  'ft:gpt-4o-mini-2024-07-18:sim-org::sim0001',
  'text-embedding-3-small',
  'whisper-1',
  'tts-1',
  'dall-e-3',
  'omni-moderation-latest',
  'gpt-4o-realtime-preview',
  'gpt-4o-mini-transcribe',
];

export const DEFAULT_ANTHROPIC_MODELS: readonly string[] = [
  'claude-haiku-4-5',
  'claude-sonnet-4-5',
  'claude-opus-4-1',
];

/** Display name and release date of the Anthropic models the simulator knows by name. */
export const ANTHROPIC_MODEL_INFO: Record<string, { display_name: string; created_at: string }> = {
  'claude-opus-4-1': { display_name: 'Claude Opus 4.1', created_at: '2025-08-05T00:00:00Z' },
  'claude-sonnet-4-5': { display_name: 'Claude Sonnet 4.5', created_at: '2025-09-29T00:00:00Z' },
  'claude-haiku-4-5': { display_name: 'Claude Haiku 4.5', created_at: '2025-10-15T00:00:00Z' },
};

/** An Anthropic model object (`GET /v1/models` entries and `GET /v1/models/{id}`). */
export function anthropicModelObject(id: string) {
  const known = ANTHROPIC_MODEL_INFO[id];
  return {
    type: 'model',
    id,
    display_name: known?.display_name ?? id,
    created_at: known?.created_at ?? '2025-01-01T00:00:00Z',
  };
}
