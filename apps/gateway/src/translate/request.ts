/**
 * Request translation between the chat-completions format (docs/providers.md#1-openai) and Anthropic's
 * messages format (§2). Parameters the target does not accept are mapped, never refused
 * (docs/design.md#text-generation): temperature is clamped to Anthropic's 0–1, `stop` becomes
 * `stop_sequences`, penalties and seeds that have no Anthropic equivalent are dropped.
 * Tools map one to one: function tools ⇄ tools with `input_schema`, assistant `tool_calls` ⇄
 * `tool_use` blocks (arguments as JSON text ⇄ an input object), `tool` messages ⇄ `tool_result`
 * blocks in a user turn, `tool_choice` and `parallel_tool_calls` ⇄ `tool_choice` with
 * `disable_parallel_tool_use`.
 *
 * Each direction has a module of its own: chat-to-anthropic-request.ts (with its turns in
 * chat-to-anthropic-turns.ts), anthropic-to-chat-request.ts, and request-tools.ts for the tools.
 * The legacy completion request is translated here.
 */
import type { ChatRequest, CompletionRequest } from './wire.js';

export { anthropicToChatRequest } from './anthropic-to-chat-request.js';
export {
  chatToAnthropicRequest,
  stopList,
  type TranslationTarget,
} from './chat-to-anthropic-request.js';
export { chatContentText } from './chat-to-anthropic-turns.js';

/**
 * Legacy completion request → chat request (the prompt becomes one user message), used when
 * the upstream has no /completions (Anthropic).
 *
 * @example
 * completionToChatRequest({ model: 'x', prompt: 'Say hi' });
 * // → { model: 'x', messages: [{ role: 'user', content: 'Say hi' }], max_tokens: 16 }
 */
export function completionToChatRequest(request: CompletionRequest): ChatRequest {
  const prompt = Array.isArray(request.prompt) ? request.prompt.join('') : request.prompt;
  const out: ChatRequest = {
    model: request.model,
    messages: [{ role: 'user', content: prompt }],
    // The legacy endpoint's documented default is 16 tokens (docs/providers.md#1-openai).
    max_tokens: request.max_tokens ?? 16,
  };
  if (request.temperature != null) out.temperature = request.temperature;
  if (request.top_p != null) out.top_p = request.top_p;
  if (request.stop != null) out.stop = request.stop;
  if (request.stream) out.stream = true;
  if (request.stream_options) out.stream_options = request.stream_options;
  if (typeof request.user === 'string') out.user = request.user;
  return out;
}
