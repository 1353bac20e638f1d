/**
 * Request translation between the chat-completions format (PROVIDERS.md §1) and Anthropic's
 * messages format (§2). Parameters the target does not accept are mapped, never refused
 * (DESIGN.md Text generation): temperature is clamped to Anthropic's 0–1, `stop` becomes
 * `stop_sequences`, penalties and seeds that have no Anthropic equivalent are dropped.
 */
import type {
  AnthropicMessageParam,
  AnthropicRequest,
  AnthropicTextBlock,
  OpenAiChatRequest,
  OpenAiCompletionRequest,
  OpenAiMessage,
  OpenAiTextPart,
} from './wire.js';

/** What a translation needs from the model catalogue. */
export interface TranslationTarget {
  /** The upstream model id of the chosen deployment. */
  upstreamModel: string;
  /** Used when the client gave no max_tokens and the target requires one (Anthropic). */
  defaultMaxTokens: number;
}

/** Anthropic's temperature tops out at 1 (PROVIDERS.md §2). */
const ANTHROPIC_MAX_TEMPERATURE = 1;
/** OpenAI accepts up to four stop sequences (PROVIDERS.md §1). */
const OPENAI_MAX_STOP = 4;

/** Joins a chat message's content (string or text parts) into plain text. */
export function chatContentText(content: OpenAiMessage['content']): string {
  if (content == null) return '';
  if (typeof content === 'string') return content;
  return content.map((part) => (part.type === 'text' ? part.text : '')).join('');
}

function toAnthropicBlocks(content: OpenAiMessage['content']): AnthropicMessageParam['content'] {
  if (content == null) return '';
  if (typeof content === 'string') return content;
  return content
    .filter((part): part is OpenAiTextPart => part.type === 'text')
    .map((part) => ({ type: 'text', text: part.text }));
}

function asBlockArray(content: AnthropicMessageParam['content']): AnthropicMessageParam['content'] {
  return typeof content === 'string' ? [{ type: 'text', text: content }] : content;
}

/** Normalises `stop` (string or array) to an array, or undefined when absent/empty. */
export function stopList(stop: string | string[] | null | undefined): string[] | undefined {
  if (stop == null) return undefined;
  const list = typeof stop === 'string' ? [stop] : stop;
  return list.length > 0 ? list : undefined;
}

/**
 * Chat completion request → Anthropic messages request.
 *
 * @example
 * chatToAnthropicRequest({ model: 'x', messages: [{ role: 'system', content: 'Be brief' },
 *   { role: 'user', content: 'Hi' }], temperature: 1.6 }, { upstreamModel: 'claude-sonnet-4-5',
 *   defaultMaxTokens: 1024 });
 * // → { model: 'claude-sonnet-4-5', system: 'Be brief', messages: [{ role: 'user', content: 'Hi' }],
 * //     max_tokens: 1024, temperature: 1 }
 */
export function chatToAnthropicRequest(
  request: OpenAiChatRequest,
  target: TranslationTarget,
): AnthropicRequest {
  const system: string[] = [];
  const messages: AnthropicMessageParam[] = [];
  for (const message of request.messages) {
    if (message.role === 'system' || message.role === 'developer') {
      system.push(chatContentText(message.content));
      continue;
    }
    // Tool messages have no text-only equivalent; their content is carried as user text.
    const role = message.role === 'assistant' ? 'assistant' : 'user';
    const content = toAnthropicBlocks(message.content);
    const previous = messages[messages.length - 1];
    if (previous && previous.role === role) {
      // Anthropic expects alternating turns: merge consecutive same-role messages into blocks.
      previous.content = [
        ...(asBlockArray(previous.content) as AnthropicTextBlock[]),
        ...(asBlockArray(content) as AnthropicTextBlock[]),
      ];
    } else {
      messages.push({ role, content });
    }
  }

  const out: AnthropicRequest = {
    model: target.upstreamModel,
    max_tokens: request.max_completion_tokens ?? request.max_tokens ?? target.defaultMaxTokens,
    messages,
  };
  if (system.length > 0) out.system = system.join('\n\n');
  if (request.temperature != null) {
    out.temperature = Math.min(Math.max(request.temperature, 0), ANTHROPIC_MAX_TEMPERATURE);
  }
  if (request.top_p != null) out.top_p = request.top_p;
  const stop = stopList(request.stop);
  if (stop) out.stop_sequences = stop;
  if (request.stream) out.stream = true;
  if (typeof request.user === 'string') out.metadata = { user_id: request.user };
  return out;
}

/**
 * Legacy completion request → chat request (the prompt becomes one user message), used when
 * the upstream has no /completions (Anthropic).
 */
export function completionToChatRequest(request: OpenAiCompletionRequest): OpenAiChatRequest {
  const prompt = Array.isArray(request.prompt) ? request.prompt.join('') : request.prompt;
  const out: OpenAiChatRequest = {
    model: request.model,
    messages: [{ role: 'user', content: prompt }],
    // The legacy endpoint's documented default is 16 tokens (PROVIDERS.md §1).
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

function anthropicContentText(content: AnthropicMessageParam['content']): string {
  if (typeof content === 'string') return content;
  return content.map((block) => (block.type === 'text' ? String(block.text ?? '') : '')).join('');
}

function toChatContent(content: AnthropicMessageParam['content']): OpenAiMessage['content'] {
  if (typeof content === 'string') return content;
  const parts: OpenAiTextPart[] = [];
  for (const block of content) {
    if (block.type === 'text') parts.push({ type: 'text', text: String(block.text ?? '') });
  }
  if (parts.length === 1) return parts[0]!.text;
  return parts;
}

/**
 * Anthropic messages request → chat completion request for an OpenAI-compatible upstream.
 * Streams always ask for usage so the gateway can bill what was produced.
 *
 * @example
 * anthropicToChatRequest({ model: 'gpt-4o-mini', max_tokens: 64, system: 'Be brief',
 *   messages: [{ role: 'user', content: 'Hi' }], stop_sequences: ['END'] }, 'gpt-4o-mini');
 * // → { model: 'gpt-4o-mini', messages: [{ role: 'system', content: 'Be brief' },
 * //     { role: 'user', content: 'Hi' }], max_tokens: 64, stop: ['END'] }
 */
export function anthropicToChatRequest(
  request: AnthropicRequest,
  upstreamModel: string,
): OpenAiChatRequest {
  const messages: OpenAiMessage[] = [];
  if (request.system != null) {
    const text = anthropicContentText(request.system as AnthropicMessageParam['content']);
    if (text !== '') messages.push({ role: 'system', content: text });
  }
  for (const message of request.messages) {
    messages.push({ role: message.role, content: toChatContent(message.content) });
  }
  const out: OpenAiChatRequest = {
    model: upstreamModel,
    messages,
    max_tokens: request.max_tokens,
  };
  if (request.temperature != null) out.temperature = request.temperature;
  if (request.top_p != null) out.top_p = request.top_p;
  if (request.stop_sequences && request.stop_sequences.length > 0) {
    out.stop = request.stop_sequences.slice(0, OPENAI_MAX_STOP);
  }
  if (request.stream) {
    out.stream = true;
    out.stream_options = { include_usage: true };
  }
  if (request.metadata?.user_id) out.user = request.metadata.user_id;
  return out;
}
