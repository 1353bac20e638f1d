/**
 * Chat → responses, the answer half of the responses translator: a chat completion (the chat
 * path's answer, whichever upstream served it) becomes a Response object; its pieces (usage,
 * output items, the response shell) are shared with the stream translator.
 */
import { randomBytes } from 'node:crypto';
import type {
  CreateResponseRequest,
  Response as ModelResponse,
  ResponseOutputItem,
  ResponseUsage,
} from '@modelgate/core';
import type { OpenAiToolCall } from '../wire.js';

/** A new id after its kind's prefix (`resp_`, `msg_`, `fc_`), as OpenAI's ids look. */
export function responsesId(prefix: string): string {
  return prefix + randomBytes(16).toString('hex');
}

/** Chat usage as the gateway's chat answers report it. */
export interface ChatUsageLike {
  prompt_tokens?: number;
  completion_tokens?: number;
  prompt_tokens_details?: { cached_tokens?: number } | null;
  completion_tokens_details?: { reasoning_tokens?: number } | null;
}

export function usageOf(usage: ChatUsageLike | null | undefined): ResponseUsage {
  const input = usage?.prompt_tokens ?? 0;
  const output = usage?.completion_tokens ?? 0;
  return {
    input_tokens: input,
    input_tokens_details: { cached_tokens: usage?.prompt_tokens_details?.cached_tokens ?? 0 },
    output_tokens: output,
    output_tokens_details: {
      reasoning_tokens: usage?.completion_tokens_details?.reasoning_tokens ?? 0,
    },
    total_tokens: input + output,
  };
}

export function messageItem(id: string, text: string, status = 'completed'): ResponseOutputItem {
  return {
    id,
    type: 'message',
    status,
    role: 'assistant',
    content: [{ type: 'output_text', text, annotations: [], logprobs: [] }],
  };
}

export function callItem(
  id: string,
  call: OpenAiToolCall,
  status = 'completed',
): ResponseOutputItem {
  return {
    id,
    type: 'function_call',
    status,
    call_id: call.id,
    name: call.function.name,
    arguments: call.function.arguments,
  };
}

/** How the request's tools were named on the chat side, to name their calls back. */
export interface ToolNaming {
  /** Chat names of custom tools (their calls go back as `custom_tool_call`). */
  custom: Set<string>;
  /** Chat name → the namespace and name of a namespaced tool. */
  namespaced: Map<string, { namespace: string; name: string }>;
}

export function toolNaming(body: CreateResponseRequest): ToolNaming {
  const naming: ToolNaming = { custom: new Set(), namespaced: new Map() };
  for (const tool of body.tools ?? []) {
    if (tool.type === 'custom' && tool.name) naming.custom.add(tool.name);
    if (tool.type !== 'namespace' || !Array.isArray(tool.tools)) continue;
    for (const inner of tool.tools as { type?: string; name?: string }[]) {
      const chatName = `${tool.name}__${inner.name}`;
      naming.namespaced.set(chatName, { namespace: String(tool.name), name: String(inner.name) });
      if (inner.type === 'custom') naming.custom.add(chatName);
    }
  }
  return naming;
}

/**
 * A call as the client named its tool: a custom tool travels as a function taking `{ input }`
 * (request.ts) and goes back as a `custom_tool_call` with that input; a namespaced one gets its
 * `namespace` and own name back.
 */
export function restoreCall(item: ResponseOutputItem, naming: ToolNaming): ResponseOutputItem {
  if (item.type !== 'function_call') return item;
  const chatName = item.name ?? '';
  const inNamespace = naming.namespaced.get(chatName);
  const named = inNamespace ? { ...item, ...inNamespace } : item;
  if (!naming.custom.has(chatName)) return named;
  let input = '';
  try {
    const parsed: unknown = JSON.parse(item.arguments ?? '{}');
    if (parsed && typeof parsed === 'object' && 'input' in parsed) input = String(parsed.input);
  } catch {
    input = item.arguments ?? '';
  }
  const { arguments: _, ...rest } = named;
  return { ...rest, id: item.id?.replace(/^fc_/, 'ctc_'), type: 'custom_tool_call', input };
}

/** The Response's fields that echo the request. */
export function responseShell(
  id: string,
  body: CreateResponseRequest,
  createdAt: number,
): ModelResponse {
  return {
    id,
    object: 'response',
    created_at: createdAt,
    status: 'in_progress',
    model: body.model,
    output: [],
    error: null,
    incomplete_details: null,
    instructions: body.instructions ?? null,
    max_output_tokens: body.max_output_tokens ?? null,
    metadata: body.metadata ?? {},
    parallel_tool_calls: body.parallel_tool_calls ?? true,
    previous_response_id: body.previous_response_id ?? null,
    reasoning: { effort: body.reasoning?.effort ?? null, summary: null },
    store: body.store ?? true,
    temperature: body.temperature ?? 1,
    text: body.text ?? { format: { type: 'text' } },
    tool_choice: body.tool_choice ?? 'auto',
    tools: body.tools ?? [],
    top_p: body.top_p ?? 1,
    truncation: body.truncation ?? 'disabled',
  };
}

/** The completed Response: its status follows the chat finish reason (`length` → incomplete). */
export function finishResponse(
  shell: ModelResponse,
  output: ResponseOutputItem[],
  finishReason: string | null,
  usage: ResponseUsage,
): ModelResponse {
  const incomplete = finishReason === 'length';
  const text = output
    .flatMap((i) => (i.type === 'message' ? (i.content ?? []) : []))
    .map((p) => (typeof p.text === 'string' ? p.text : ''))
    .join('');
  return {
    ...shell,
    status: incomplete ? 'incomplete' : 'completed',
    incomplete_details: incomplete ? { reason: 'max_output_tokens' } : null,
    output,
    output_text: text,
    usage,
  };
}

/** A chat completion as the gateway's chat path answers it. */
export interface ChatCompletionLike {
  choices?: {
    message?: { content?: string | null; tool_calls?: OpenAiToolCall[] | null };
    finish_reason?: string | null;
  }[];
  usage?: ChatUsageLike | null;
}

/**
 * @example
 * fromChat(shell, { choices: [{ message: { content: 'Hi' }, finish_reason: 'stop' }] }, toolNaming(body)).output[0].type; // 'message'
 */
export function fromChat(
  shell: ModelResponse,
  chat: ChatCompletionLike,
  naming: ToolNaming,
): ModelResponse {
  const choice = chat.choices?.[0];
  const output: ResponseOutputItem[] = [];
  const content = choice?.message?.content;
  if (content) output.push(messageItem(responsesId('msg_'), content));
  for (const call of choice?.message?.tool_calls ?? [])
    output.push(callItem(responsesId('fc_'), call));
  return finishResponse(
    shell,
    output.map((item) => restoreCall(item, naming)),
    choice?.finish_reason ?? null,
    usageOf(chat.usage),
  );
}
