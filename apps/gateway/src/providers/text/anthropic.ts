/**
 * Anthropic text adapter — wire: docs/providers.md#2-anthropic (Anthropic Messages). Auth is `x-api-key`, and
 * `anthropic-version: 2023-06-01` is required on every request. The base URL has no version
 * path (`https://api.anthropic.com`, or `{sim}/anthropic`), so the paths are `/v1/messages` and
 * `/v1/messages/count_tokens`. The client's `anthropic-beta` flags are merged with the configured ones
 * per request (betas.ts).
 */
import type { Agent } from 'undici';
import { withBetas } from './betas.js';
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
  private readonly targets: Partial<Record<TextOperation, HttpTarget>>;

  constructor(options: AnthropicProviderOptions) {
    this.name = options.name;
    this.agent = createAgent(options.timeouts);
    const headers = withBetas({
      'anthropic-version': ANTHROPIC_API_VERSION,
      ...options.headers,
      'x-api-key': options.apiKey,
      'content-type': 'application/json',
    });
    this.targets = {
      messages: httpTarget(options.baseUrl, '/v1/messages', headers),
      count_tokens: httpTarget(options.baseUrl, '/v1/messages/count_tokens', headers),
    };
  }

  supports(operation: TextOperation): boolean {
    return operation in this.targets;
  }

  send(request: UpstreamRequest): Promise<UpstreamResponse> {
    const target = this.targets[request.operation];
    if (!target) throw new Error(`${this.name} does not serve ${request.operation}`);
    // The target's headers are shared by every request: the client's betas go on a copy.
    const sent =
      request.betas && request.betas.length > 0
        ? { ...target, headers: withBetas(target.headers, request.betas) }
        : target;
    return postJson(this.agent, this.name, sent, request);
  }

  close(): Promise<void> {
    return this.agent.close();
  }
}
