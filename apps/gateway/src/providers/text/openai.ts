/**
 * OpenAI-compatible text adapter — wire: docs/providers.md#1-openai (OpenAI Chat Completions, legacy
 * Completions). Auth is `Authorization: Bearer <key>`; the base URL already ends in `/v1`
 * (`https://api.openai.com/v1`, or `{sim}/openai/v1` in the simulator), so paths are relative
 * to it: `/chat/completions`, `/completions`.
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

export interface OpenAiProviderOptions {
  name: string;
  baseUrl: string;
  apiKey: string;
  /** Extra headers sent on every request (e.g. `OpenAI-Organization`, `OpenAI-Project`). */
  headers?: Record<string, string>;
  timeouts: ProviderTimeouts;
}

const PATHS: Partial<Record<TextOperation, string>> = {
  chat: '/chat/completions',
  completions: '/completions',
  responses: '/responses',
};

/**
 * @example
 * const openai = new OpenAiProvider({ name: 'openai', baseUrl: 'https://api.openai.com/v1',
 *   apiKey: config.providers.openai.apiKey ?? '', timeouts: DEFAULT_TIMEOUTS });
 * const res = await openai.send({ operation: 'chat', body: { model: 'gpt-4o-mini', messages } });
 */
export class OpenAiProvider implements TextProvider {
  readonly kind = 'openai' as const;
  readonly name: string;
  private readonly agent: Agent;
  private readonly targets: Partial<Record<TextOperation, HttpTarget>> = {};

  constructor(options: OpenAiProviderOptions) {
    this.name = options.name;
    this.agent = createAgent(options.timeouts);
    const headers = {
      ...options.headers,
      authorization: `Bearer ${options.apiKey}`,
      'content-type': 'application/json',
    };
    for (const [operation, path] of Object.entries(PATHS) as Array<[TextOperation, string]>) {
      this.targets[operation] = httpTarget(options.baseUrl, path, headers);
    }
  }

  supports(operation: TextOperation): boolean {
    return operation in PATHS;
  }

  send(request: UpstreamRequest): Promise<UpstreamResponse> {
    const target = this.targets[request.operation];
    if (!target) throw new Error(`${this.name} does not serve ${request.operation}`);
    return postJson(this.agent, this.name, target, request);
  }

  close(): Promise<void> {
    return this.agent.close();
  }
}
