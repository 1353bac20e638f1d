// One assistant turn in any of the three text formats, reduced to what a chat UI shows: the text so far, the
// tool calls so far, and at the end why it stopped and what it used.
import type {
  ChatCompletionChunk,
  ChatToolCall,
  CompletionUsage,
  FinishReason,
  Message,
  MessageStreamEvent,
} from '@modelgate/core';
import { streamChatCompletion } from '../chat.js';
import { streamMessage } from '../message.js';
import { toChatMessages, toMessagesConversation } from './messages.js';
import { streamResponsesTurn } from './responses-turn.js';
import type { ChatRequestExtras, MessagesRequestExtras, TurnRequest } from './turn-request.js';
import { emptyResult, progressOf, type TurnResult } from './turn-result.js';

export type {
  ChatFormat,
  ChatRequestExtras,
  MessagesRequestExtras,
  ResponsesRequestExtras,
  TurnRequest,
} from './turn-request.js';
export type { TurnProgress, TurnResult } from './turn-result.js';

/** `/v1/messages` requires `max_tokens`; this is sent when `body.max_tokens` is not set. */
export const DEFAULT_MESSAGES_MAX_TOKENS = 1024;

/** Streams one turn; rejects with the stream's error (or the abort reason). */
export function streamTurn(request: TurnRequest): Promise<TurnResult> {
  switch (request.format.format) {
    case 'messages':
      return streamMessagesTurn(request, request.format.body ?? {});
    case 'responses':
      return streamResponsesTurn(request, request.format.body ?? {});
    default:
      return streamChatTurn(request, request.format.body ?? {});
  }
}

async function streamChatTurn(request: TurnRequest, body: ChatRequestExtras): Promise<TurnResult> {
  const stream = streamChatCompletion(
    request.client,
    {
      stream_options: { include_usage: true },
      ...body,
      model: request.model,
      messages: toChatMessages(request.messages),
    },
    request.options,
  );
  const result: TurnResult = emptyResult();
  for await (const chunk of stream) {
    result.responseId ??= chunk.id;
    result.model ??= chunk.model;
    if (chunk.usage) result.usage = chunk.usage;
    const choice = chunk.choices.find((c) => c.index === 0);
    if (!choice) continue;
    if (choice.finish_reason) result.finishReason = choice.finish_reason;
    if (addChatDelta(result, choice.delta)) request.onProgress(progressOf(result));
  }
  return result;
}

/** Adds a chunk's delta; true when it changed the text or the tool calls. */
function addChatDelta(
  result: TurnResult,
  delta: ChatCompletionChunk['choices'][number]['delta'],
): boolean {
  let changed = false;
  if (typeof delta.content === 'string' && delta.content !== '') {
    result.text += delta.content;
    changed = true;
  }
  for (const piece of delta.tool_calls ?? []) {
    const call = result.toolCalls[piece.index] ?? {
      id: '',
      type: 'function',
      function: { name: '', arguments: '' },
    };
    result.toolCalls[piece.index] = call;
    if (piece.id) call.id = piece.id;
    if (piece.function?.name) call.function.name += piece.function.name;
    if (piece.function?.arguments) call.function.arguments += piece.function.arguments;
    changed = true;
  }
  return changed;
}

async function streamMessagesTurn(
  request: TurnRequest,
  body: MessagesRequestExtras,
): Promise<TurnResult> {
  const conversation = toMessagesConversation(toChatMessages(request.messages));
  const system = body.system ?? conversation.system;
  const stream = streamMessage(
    request.client,
    {
      max_tokens: DEFAULT_MESSAGES_MAX_TOKENS,
      ...body,
      ...(system === undefined ? {} : { system }),
      model: request.model,
      messages: conversation.messages,
    },
    request.options,
  );
  const result: TurnResult = emptyResult();
  // Content block index → tool call, for the `input_json_delta`s that follow a `tool_use` start.
  const toolBlocks = new Map<number, ChatToolCall>();
  let inputTokens = 0;
  for await (const event of stream) {
    if (event.type === 'message_start') {
      result.responseId = event.message.id;
      result.model = event.message.model;
      inputTokens = event.message.usage.input_tokens;
    } else if (event.type === 'message_delta') {
      result.finishReason = toFinishReason(event.delta.stop_reason);
      inputTokens = event.usage.input_tokens ?? inputTokens;
      result.usage = usageOf(inputTokens, event.usage.output_tokens);
    } else if (addMessagesEvent(result, toolBlocks, event)) {
      request.onProgress(progressOf(result));
    }
  }
  return result;
}

/** Adds a content block event; true when it changed the text or the tool calls. */
function addMessagesEvent(
  result: TurnResult,
  toolBlocks: Map<number, ChatToolCall>,
  event: MessageStreamEvent,
): boolean {
  if (event.type === 'content_block_start' && event.content_block.type === 'tool_use') {
    const { id, name } = event.content_block;
    const call: ChatToolCall = { id, type: 'function', function: { name, arguments: '' } };
    toolBlocks.set(event.index, call);
    result.toolCalls.push(call);
    return true;
  }
  if (event.type !== 'content_block_delta') return false;
  if (event.delta.type === 'text_delta') {
    result.text += event.delta.text;
    return event.delta.text !== '';
  }
  const call = toolBlocks.get(event.index);
  if (!call) return false;
  call.function.arguments += event.delta.partial_json;
  return true;
}

/** The messages format's stop reasons, in the chat format's terms. */
function toFinishReason(reason: Message['stop_reason']): FinishReason | null {
  switch (reason) {
    case null:
      return null;
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'length';
    case 'tool_use':
      return 'tool_calls';
    case 'refusal':
      return 'content_filter';
    default:
      return 'stop';
  }
}

function usageOf(input: number, output: number): CompletionUsage {
  return { prompt_tokens: input, completion_tokens: output, total_tokens: input + output };
}
