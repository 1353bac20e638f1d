/**
 * Anthropic text adapter — wire: docs/providers.md#2-anthropic (Anthropic Messages). Auth is `x-api-key`, and
 * `anthropic-version: 2023-06-01` is required on every request. The base URL has no version
 * path (`https://api.anthropic.com`, or `{sim}/anthropic`), so the path is `/v1/messages`.
 */
import type { Agent } from 'undici';
import { createAgent, type HttpTarget, httpTarget, postJson } from './http.js';
import type {
  ProviderTimeouts,
  TextOperation,
  TextProvider,
  UpstreamRequest,
  UpstreamResponse,
} from './types.js';

/** The API version this adapter speaks (docs/providers.md#2-anthropic). */
export const ANTHROPIC_API_VERSION = '2023-06-01';

export interface AnthropicProviderOptions {
  name: string;
  baseUrl: string;
  apiKey: string;
  /** Extra headers sent on every request (e.g. `anthropic-beta`). */
  headers?: Record<string, string>;
  timeouts: ProviderTimeouts;
}

/**
 * @example
 * const anthropic = new AnthropicProvider({ name: 'anthropic', baseUrl: 'https://api.anthropic.com',
 *   apiKey: config.providers.anthropic.apiKey ?? '', timeouts: DEFAULT_TIMEOUTS });
 * await anthropic.send({ operation: 'messages', body: { model: 'claude-sonnet-4-5', max_tokens: 64, messages } });
 */
export class AnthropicProvider implements TextProvider {
  readonly kind = 'anthropic' as const;
  readonly name: string;
  private readonly agent: Agent;
  private readonly target: HttpTarget;

  constructor(options: AnthropicProviderOptions) {
    this.name = options.name;
    this.agent = createAgent(options.timeouts);
    this.target = httpTarget(options.baseUrl, '/v1/messages', {
      'anthropic-version': ANTHROPIC_API_VERSION,
      ...options.headers,
      'x-api-key': options.apiKey,
      'content-type': 'application/json',
    });
  }

  supports(operation: TextOperation): boolean {
    return operation === 'messages';
  }

  send(request: UpstreamRequest): Promise<UpstreamResponse> {
    if (request.operation !== 'messages') {
      throw new Error(`${this.name} does not serve ${request.operation}`);
    }
    return postJson(this.agent, this.name, this.target, request);
  }

  close(): Promise<void> {
    return this.agent.close();
  }
}
