/**
 * Anthropic messages request → chat completion request for an OpenAI-compatible upstream:
 * `system` becomes a system message, `tool_use` blocks become assistant `tool_calls` (input
 * object → JSON text), `tool_result` blocks become `tool` messages, blocks of kinds the spec does
 * not list become text when they have some (content-blocks.ts lists the others as dropped), and
 * `stop_sequences` is cut to the four stops OpenAI accepts.
 */
import type {
  ChatToolCall,
  ImageBlock,
  RequestContentBlock,
  ToolResultBlock,
} from '@modelgate/core';
import { isKnownBlock, readableText, resultPart } from './content-blocks.js';
import { imagePartOfBlock } from './images.js';
import { chatReasoningOf } from './reasoning.js';
import { chatToolChoice, chatTools } from './request-tools.js';
import type {
  ChatContentPart,
  ChatMessage,
  ChatRequest,
  MessageParam,
  MessagesRequest,
} from './wire.js';

/** OpenAI accepts up to four stop sequences (docs/providers.md#1-openai). */
const OPENAI_MAX_STOP = 4;

/** The text of a `system` turn or prompt: its text blocks, and the readable text of vendor blocks. */
function anthropicContentText(content: string | readonly RequestContentBlock[]): string {
  if (typeof content === 'string') return content;
  return content.map((block) => blockText(block) ?? '').join('');
}

/** A block's text when the chat format can carry it as text, else null. */
function blockText(block: RequestContentBlock): string | null {
  if (!isKnownBlock(block)) return readableText(block);
  return block.type === 'text' ? block.text : null;
}

/** Text and image blocks, and vendor blocks with readable text (as text); other kinds left out. */
function toChatContent(blocks: readonly RequestContentBlock[]): ChatContentPart[] | string {
  const parts: ChatContentPart[] = [];
  for (const block of blocks) {
    if (isKnownBlock(block) && block.type === 'image') {
      // A vendor file has no chat form: content-blocks.ts lists it as dropped.
      const image = imagePartOfBlock(block);
      if (image) parts.push(image);
    } else {
      const text = blockText(block);
      if (text !== null) parts.push({ type: 'text', text });
    }
  }
  const only = parts.length === 1 ? parts[0]! : null;
  if (only?.type === 'text') return only.text;
  return parts;
}

/** An assistant turn's blocks as one assistant message: its tool_use blocks become `tool_calls`. */
function assistantMessageOf(blocks: readonly RequestContentBlock[]): ChatMessage {
  const calls: ChatToolCall[] = [];
  const text: RequestContentBlock[] = [];
  for (const block of blocks) {
    if (isKnownBlock(block) && block.type === 'tool_use') {
      calls.push({
        id: block.id,
        type: 'function',
        function: { name: block.name, arguments: JSON.stringify(block.input ?? {}) },
      });
    } else text.push(block);
  }
  if (calls.length === 0) return { role: 'assistant', content: toChatContent(text) };
  const content = toChatContent(text);
  const empty = content === '' || (Array.isArray(content) && content.length === 0);
  return { role: 'assistant', content: empty ? null : content, tool_calls: calls };
}

/** A tool result as a `tool` message (its text) and the images it holds. */
function toolResultOf(result: ToolResultBlock): { message: ChatMessage; images: ImageBlock[] } {
  const images: ImageBlock[] = [];
  let text = typeof result.content === 'string' ? result.content : '';
  if (Array.isArray(result.content)) {
    // Result blocks are open (any kind passes to a messages upstream): chat takes their text,
    // and the images the spec's ImageBlock describes; content-blocks.ts lists the rest as dropped.
    for (const inner of result.content) {
      const part = resultPart(inner);
      if (part.kind === 'text') text += part.text;
      else if (part.kind === 'image') images.push(part.block);
    }
  }
  // Chat has no error flag on a tool result: say it in the text the model reads.
  const content = result.is_error ? `Error: ${text}` : text;
  return { message: { role: 'tool', tool_call_id: result.tool_use_id, content }, images };
}

/**
 * A user turn's blocks as chat messages: its tool_result blocks become `tool` messages (their text
 * blocks), placed first because a tool message must directly follow the assistant message that
 * made the calls; images inside the results open the user message that follows, as image parts.
 */
function userMessagesOf(blocks: readonly RequestContentBlock[]): ChatMessage[] {
  const out: ChatMessage[] = [];
  // A tool message holds text only: a result's images go to the user message after the results.
  const rest: RequestContentBlock[] = [];
  const images: RequestContentBlock[] = [];
  for (const block of blocks) {
    if (!isKnownBlock(block) || block.type !== 'tool_result') {
      rest.push(block);
      continue;
    }
    const result = toolResultOf(block);
    out.push(result.message);
    images.push(...result.images);
  }
  rest.unshift(...images);
  if (rest.length > 0 || out.length === 0) out.push({ role: 'user', content: toChatContent(rest) });
  return out;
}

/** One Anthropic turn → chat messages. */
function chatMessagesOf(message: MessageParam): ChatMessage[] {
  // A system turn inside the conversation (Claude Code sends them) keeps its place as a system message.
  if (message.role === 'system')
    return [{ role: 'system', content: anthropicContentText(message.content) }];
  if (typeof message.content === 'string') {
    const content = message.content;
    return [message.role === 'user' ? { role: 'user', content } : { role: 'assistant', content }];
  }
  if (message.role === 'assistant') return [assistantMessageOf(message.content)];
  return userMessagesOf(message.content);
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
    const text = anthropicContentText(request.system);
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
  const { effort } = chatReasoningOf(request);
  if (effort !== undefined) out.reasoning_effort = effort;
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
