// One assistant turn on `/v1/responses`: the conversation as input items (or only the new ones
// after a stored response), the event stream reduced to text, tool calls, usage and why it ended.
import {
  type ChatToolCall,
  type CompletionUsage,
  type FinishReason,
  type Response as ModelResponse,
  NotFoundError,
  type ResponseStreamEvent,
} from '@modelgate/core';
import { streamResponse } from '../responses.js';
import { toChatMessages } from './messages.js';
import { toResponseInput } from './response-items.js';
import type { ResponsesRequestExtras, TurnRequest } from './turn-request.js';
import { emptyResult, progressOf, type TurnResult } from './turn-result.js';

/**
 * Streams one turn. With a continuation, only the messages after the stored response are sent,
 * naming it as `previous_response_id`; when the gateway no longer has it (deleted, past its
 * retention: 404 `response_not_found`), the turn is sent again with the whole conversation.
 */
export async function streamResponsesTurn(
  request: TurnRequest,
  body: ResponsesRequestExtras,
): Promise<TurnResult> {
  const { continuation } = request;
  if (!continuation) return streamOnce(request, body, undefined);
  try {
    return await streamOnce(request, body, continuation);
  } catch (error) {
    if (!(error instanceof NotFoundError && error.code === 'response_not_found')) throw error;
    return streamOnce(request, body, undefined);
  }
}

async function streamOnce(
  request: TurnRequest,
  body: ResponsesRequestExtras,
  continuation: TurnRequest['continuation'],
): Promise<TurnResult> {
  const messages = continuation ? request.messages.slice(continuation.after) : request.messages;
  const stream = streamResponse(
    request.client,
    {
      store: true,
      ...body,
      ...(continuation ? { previous_response_id: continuation.responseId } : {}),
      model: request.model,
      input: toResponseInput(toChatMessages(messages)),
    },
    request.options,
  );
  const result = emptyResult();
  const calls = new Map<number, ChatToolCall>();
  for await (const event of stream) {
    if (event.type === 'response.created' && event.response) {
      result.responseId = event.response.id;
      result.model = event.response.model;
      request.onProgress(progressOf(result));
    } else if (event.type === 'response.completed' || event.type === 'response.incomplete') {
      if (event.response) finish(result, event.response);
    } else if (addEvent(result, calls, event)) {
      request.onProgress(progressOf(result));
    }
  }
  return result;
}

/**
 * Adds a text or tool call event; true when it changed the text or the tool calls. `calls` maps an
 * event's `output_index` to its call (the argument deltas name the index, not the call).
 */
function addEvent(
  result: TurnResult,
  calls: Map<number, ChatToolCall>,
  event: ResponseStreamEvent,
): boolean {
  const index = event.output_index ?? -1;
  switch (event.type) {
    case 'response.output_text.delta': {
      result.text += event.delta ?? '';
      return Boolean(event.delta);
    }
    case 'response.output_item.added': {
      if (event.item?.type !== 'function_call') return false;
      const call: ChatToolCall = {
        id: event.item.call_id ?? '',
        type: 'function',
        function: { name: event.item.name ?? '', arguments: '' },
      };
      calls.set(index, call);
      result.toolCalls.push(call);
      return true;
    }
    case 'response.function_call_arguments.delta': {
      const call = calls.get(index);
      if (!call || !event.delta) return false;
      call.function.arguments += event.delta;
      return true;
    }
    case 'response.output_item.done': {
      // The whole call: its final arguments.
      const call = calls.get(index);
      if (!call || event.item?.type !== 'function_call') return false;
      call.function.arguments = event.item.arguments ?? call.function.arguments;
      return true;
    }
    default:
      return false;
  }
}

function finish(result: TurnResult, response: ModelResponse): void {
  result.responseId = response.id;
  result.model = response.model;
  result.usage = response.usage ? usageOf(response.usage) : undefined;
  result.finishReason = finishReasonOf(response);
}

/** The response's end in the chat format's terms. */
function finishReasonOf(response: ModelResponse): FinishReason {
  if (response.status === 'incomplete') {
    return response.incomplete_details?.reason === 'content_filter' ? 'content_filter' : 'length';
  }
  return response.output.some((item) => item.type === 'function_call') ? 'tool_calls' : 'stop';
}

function usageOf(usage: NonNullable<ModelResponse['usage']>): CompletionUsage {
  return {
    prompt_tokens: usage.input_tokens,
    completion_tokens: usage.output_tokens,
    total_tokens: usage.total_tokens,
  };
}
