/**
 * OpenAI images adapter — wire: docs/providers.md#12-openai-images. `POST {base}/images/generations`
 * with the key as a bearer token, through the same HTTP plumbing as the text adapters (keep-alive
 * agent, timeouts, the mapping of failures to UpstreamError in providers/text/http.ts). Images are
 * not streamed: the answer is read whole.
 */
import type { Agent } from 'undici';
import {
  classifyNetworkError,
  createAgent,
  type HttpTarget,
  httpTarget,
  postJson,
} from '../text/http.js';
import { type ProviderTimeouts, UpstreamError } from '../text/types.js';

/** An image provider adapter: sends a generation in its upstream's format, returns its JSON answer. */
export interface ImageProvider {
  readonly name: string;
  /**
   * Resolves with the parsed answer of a 2xx; rejects with an UpstreamError otherwise.
   * @example
   * const answer = await provider.generate({ model: 'dall-e-3', prompt: 'a cat' }, signal);
   */
  generate(body: Record<string, unknown>, signal: AbortSignal): Promise<unknown>;
  close(): Promise<void>;
}

/**
 * A high-quality GPT image can take a minute or two before the first byte (the answer comes whole),
 * so the first-byte timeout is three times the text one.
 */
export const IMAGE_TIMEOUTS: ProviderTimeouts = {
  connectMs: 5_000,
  firstByteMs: 180_000,
  idleMs: 60_000,
};

export interface OpenAiImageProviderOptions {
  name: string;
  /** Ends in `/v1`: `https://api.openai.com/v1`, or `{sim}/openai/v1`. */
  baseUrl: string;
  apiKey: string;
  timeouts?: ProviderTimeouts;
}

/**
 * @example
 * const openai = new OpenAiImageProvider({ name: 'openai', baseUrl: 'https://api.openai.com/v1', apiKey });
 */
export class OpenAiImageProvider implements ImageProvider {
  readonly name: string;
  private readonly agent: Agent;
  private readonly target: HttpTarget;

  constructor(options: OpenAiImageProviderOptions) {
    this.name = options.name;
    this.agent = createAgent(options.timeouts ?? IMAGE_TIMEOUTS);
    this.target = httpTarget(options.baseUrl, '/images/generations', {
      authorization: `Bearer ${options.apiKey}`,
      'content-type': 'application/json',
    });
  }

  async generate(body: Record<string, unknown>, signal: AbortSignal): Promise<unknown> {
    const response = await postJson(this.agent, this.name, this.target, { body, signal });
    let raw: Buffer;
    try {
      raw = await response.body.collect();
    } catch (err) {
      throw classifyNetworkError(err, this.name);
    }
    try {
      return JSON.parse(raw.toString('utf8'));
    } catch {
      throw new UpstreamError('status', `${this.name} sent an answer that is not JSON.`, 502);
    }
  }

  close(): Promise<void> {
    return this.agent.close();
  }
}
