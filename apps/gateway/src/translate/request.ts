/**
 * Request translation between the chat-completions format (docs/providers.md#1-openai) and Anthropic's
 * messages format (§2). Parameters the target does not accept are mapped, never refused
 * (docs/design.md#text-generation): temperature is clamped to Anthropic's 0–1, `stop` becomes
 * `stop_sequences`, penalties and seeds that have no Anthropic equivalent are dropped.
 * Tools map one to one: function tools ⇄ tools with `input_schema`, assistant `tool_calls` ⇄
 * `tool_use` blocks (arguments as JSON text ⇄ an input object), `tool` messages ⇄ `tool_result`
 * blocks in a user turn, `tool_choice` and `parallel_tool_calls` ⇄ `tool_choice` with
 * `disable_parallel_tool_use`.
 */

import type {
  ChatToolCall,
  RequestContentBlock,
  ToolResultBlock,
  ToolUseBlock,
} from '@modelgate/core';
import { badRequest } from '../http/errors.js';
import { imageBlockOfPart, imagePartOfBlock } from './images.js';
import { responseFormatPlan } from './response-format.js';
import type {
  ChatContentPart,
  ChatMessage,
  ChatRequest,
  ChatTool,
  ChatToolChoice,
  CompletionRequest,
  MessageParam,
  MessagesRequest,
  MessagesTool,
  MessagesToolChoice,
} from './wire.js';

/** What a translation needs from the model catalogue. */
export interface TranslationTarget {
  /** The upstream model id of the chosen deployment. */
  upstreamModel: string;
  /** Used when the client gave no max_tokens and the target requires one (Anthropic). */
  defaultMaxTokens: number;
}

/** Anthropic's temperature tops out at 1 (docs/providers.md#2-anthropic). */
const ANTHROPIC_MAX_TEMPERATURE = 1;
/** OpenAI accepts up to four stop sequences (docs/providers.md#1-openai). */
const OPENAI_MAX_STOP = 4;

/** Joins a chat message's content (string or text parts) into plain text. */
export function chatContentText(content: ChatMessage['content']): string {
  if (content == null) return '';
  if (typeof content === 'string') return content;
  return content.map((part) => (part.type === 'text' ? part.text : '')).join('');
}

function toAnthropicBlocks(content: ChatMessage['content']): MessageParam['content'] {
  if (content == null) return '';
  if (typeof content === 'string') return content;
  return content.map(
    (part): RequestContentBlock =>
      part.type === 'image_url' ? imageBlockOfPart(part) : { type: 'text', text: part.text },
  );
}

function asBlockArray(content: MessageParam['content']): RequestContentBlock[] {
  return typeof content === 'string' ? [{ type: 'text', text: content }] : content;
}

/** A tool call's arguments (JSON text) as the input object Anthropic requires. */
function toolInput(call: ChatToolCall, param: string): Record<string, unknown> {
  const text = call.function.arguments.trim();
  if (text === '') return {};
  let input: unknown;
  try {
    input = JSON.parse(text);
  } catch {
    input = undefined;
  }
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    throw badRequest(
      `${param}: the arguments must be a JSON object to be sent to this model.`,
      param,
      'invalid_value',
    );
  }
  return input as Record<string, unknown>;
}

function assistantBlocks(
  message: Extract<ChatMessage, { role: 'assistant' }>,
  index: number,
): MessageParam['content'] {
  const content = toAnthropicBlocks(message.content);
  const calls = message.tool_calls ?? [];
  if (calls.length === 0) return content;
  const blocks: RequestContentBlock[] =
    content === '' ? [] : asBlockArray(content).filter((b) => b.type !== 'text' || b.text !== '');
  calls.forEach((call, j) => {
    const use: ToolUseBlock = {
      type: 'tool_use',
      id: call.id,
      name: call.function.name,
      input: toolInput(call, `messages.${index}.tool_calls.${j}.function.arguments`),
    };
    blocks.push(use);
  });
  return blocks;
}

function toolResultBlock(message: Extract<ChatMessage, { role: 'tool' }>): ToolResultBlock {
  return {
    type: 'tool_result',
    tool_use_id: message.tool_call_id,
    content: chatContentText(message.content),
  };
}

function anthropicTools(tools: readonly ChatTool[]): MessagesTool[] {
  return tools.map(({ function: fn }) => {
    const tool: MessagesTool = {
      name: fn.name,
      // Anthropic requires a schema; a function without parameters takes none.
      input_schema: fn.parameters ?? { type: 'object', properties: {} },
    };
    if (fn.description !== undefined) tool.description = fn.description;
    return tool;
  });
}

function anthropicToolChoice(
  choice: ChatToolChoice | undefined,
  parallel: boolean | null | undefined,
): MessagesToolChoice | undefined {
  const single = parallel === false ? { disable_parallel_tool_use: true } : {};
  if (choice === undefined) return parallel === false ? { type: 'auto', ...single } : undefined;
  if (choice === 'none') return { type: 'none' };
  if (choice === 'auto') return { type: 'auto', ...single };
  if (choice === 'required') return { type: 'any', ...single };
  return { type: 'tool', name: choice.function.name, ...single };
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
  request: ChatRequest,
  target: TranslationTarget,
): MessagesRequest {
  const system: string[] = [];
  const messages: MessageParam[] = [];
  request.messages.forEach((message, index) => {
    if (message.role === 'system' || message.role === 'developer') {
      system.push(chatContentText(message.content));
      return;
    }
    // A tool message is a tool_result block in a user turn; consecutive results (parallel
    // calls) merge into one turn below, ahead of any user text, as Anthropic requires.
    const role = message.role === 'assistant' ? 'assistant' : 'user';
    const content: MessageParam['content'] =
      message.role === 'tool'
        ? [toolResultBlock(message)]
        : message.role === 'assistant'
          ? assistantBlocks(message, index)
          : toAnthropicBlocks(message.content);
    const previous = messages[messages.length - 1];
    if (previous && previous.role === role) {
      // Anthropic expects alternating turns: merge consecutive same-role messages into blocks.
      previous.content = [...asBlockArray(previous.content), ...asBlockArray(content)];
    } else {
      messages.push({ role, content });
    }
  });

  const out: MessagesRequest = {
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
  if (request.tools && request.tools.length > 0) {
    out.tools = anthropicTools(request.tools);
    const choice = anthropicToolChoice(request.tool_choice, request.parallel_tool_calls);
    if (choice) out.tool_choice = choice;
  }
  const format = responseFormatPlan(request);
  if (format && 'tool' in format) {
    out.tools = [format.tool];
    out.tool_choice = { type: 'tool', name: format.tool.name };
  } else if (format) {
    system.push(format.instruction);
    out.system = system.join('\n\n');
  }
  return out;
}

/**
 * Legacy completion request → chat request (the prompt becomes one user message), used when
 * the upstream has no /completions (Anthropic).
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

function anthropicContentText(content: MessageParam['content']): string {
  if (typeof content === 'string') return content;
  return content.map((block) => (block.type === 'text' ? String(block.text ?? '') : '')).join('');
}

function toChatContent(blocks: readonly RequestContentBlock[]): ChatContentPart[] | string {
  const parts: ChatContentPart[] = [];
  for (const block of blocks) {
    if (block.type === 'text') parts.push({ type: 'text', text: block.text });
    else if (block.type === 'image') parts.push(imagePartOfBlock(block));
  }
  const only = parts.length === 1 ? parts[0]! : null;
  if (only?.type === 'text') return only.text;
  return parts;
}

/**
 * One Anthropic turn → chat messages: an assistant turn's tool_use blocks become `tool_calls`; a
 * user turn's tool_result blocks become `tool` messages, placed first because a tool message must
 * directly follow the assistant message that made the calls.
 */
function chatMessagesOf(message: MessageParam): ChatMessage[] {
  if (typeof message.content === 'string') {
    const content = message.content;
    return [message.role === 'user' ? { role: 'user', content } : { role: 'assistant', content }];
  }
  const blocks = message.content;
  if (message.role === 'assistant') {
    const calls: ChatToolCall[] = [];
    const text: RequestContentBlock[] = [];
    for (const block of blocks) {
      if (block.type === 'tool_use') {
        calls.push({
          id: block.id,
          type: 'function',
          function: { name: block.name, arguments: JSON.stringify(block.input ?? {}) },
        });
      } else text.push(block);
    }
    if (calls.length === 0) return [{ role: 'assistant', content: toChatContent(text) }];
    const content = toChatContent(text);
    const empty = content === '' || (Array.isArray(content) && content.length === 0);
    return [{ role: 'assistant', content: empty ? null : content, tool_calls: calls }];
  }
  const out: ChatMessage[] = [];
  const rest: RequestContentBlock[] = [];
  for (const block of blocks) {
    if (block.type !== 'tool_result') {
      rest.push(block);
      continue;
    }
    const result = block;
    const text = anthropicContentText(result.content ?? '');
    // Chat has no error flag on a tool result: say it in the text the model reads.
    out.push({
      role: 'tool',
      tool_call_id: result.tool_use_id,
      content: result.is_error ? `Error: ${text}` : text,
    });
  }
  if (rest.length > 0 || out.length === 0) out.push({ role: 'user', content: toChatContent(rest) });
  return out;
}

function chatTools(tools: readonly MessagesTool[]): ChatTool[] {
  return tools.map((tool) => {
    const fn: ChatTool['function'] = { name: tool.name, parameters: tool.input_schema };
    if (tool.description !== undefined) fn.description = tool.description;
    return { type: 'function', function: fn };
  });
}

function chatToolChoice(choice: MessagesToolChoice): ChatToolChoice {
  switch (choice.type) {
    case 'none':
      return 'none';
    case 'any':
      return 'required';
    case 'tool':
      return { type: 'function', function: { name: choice.name } };
    default:
      return 'auto';
  }
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
  request: MessagesRequest,
  upstreamModel: string,
): ChatRequest {
  const messages: ChatMessage[] = [];
  if (request.system != null) {
    const text = anthropicContentText(request.system as MessageParam['content']);
    if (text !== '') messages.push({ role: 'system', content: text });
  }
  for (const message of request.messages) messages.push(...chatMessagesOf(message));
  const out: ChatRequest = {
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
  if (request.tools && request.tools.length > 0) {
    out.tools = chatTools(request.tools);
    if (request.tool_choice) {
      out.tool_choice = chatToolChoice(request.tool_choice);
      const single =
        request.tool_choice.type !== 'none' && request.tool_choice.disable_parallel_tool_use;
      if (single) out.parallel_tool_calls = false;
    }
  }
  return out;
}
