/** Text provider adapters and the registry that builds one per configured provider. */
import { AnthropicProvider } from './anthropic.js';
import { OpenAiProvider } from './openai.js';
import type { ProviderKind, ProviderTimeouts, TextProvider } from './types.js';

export { ANTHROPIC_API_VERSION, AnthropicProvider } from './anthropic.js';
export { OpenAiProvider } from './openai.js';
export * from './types.js';

export interface TextProviderSpec {
  name: string;
  kind: ProviderKind;
  baseUrl: string;
  apiKey: string;
  headers?: Record<string, string>;
  timeouts: ProviderTimeouts;
}

/**
 * Builds the adapter for a provider spec. A new provider kind is one file and one line here.
 *
 * @example
 * createTextProvider({ name: 'openai', kind: 'openai', baseUrl: 'https://api.openai.com/v1',
 *   apiKey: 'sk-…', timeouts: DEFAULT_TIMEOUTS });
 */
export function createTextProvider(spec: TextProviderSpec): TextProvider {
  switch (spec.kind) {
    case 'openai':
      return new OpenAiProvider(spec);
    case 'anthropic':
      return new AnthropicProvider(spec);
  }
}
