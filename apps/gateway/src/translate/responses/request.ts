/**
 * Responses → chat, the request half of the responses translator. The chat format is the pivot:
 * a responses request becomes a chat request, and the chat path (with its own chat ⇄ messages
 * translation) serves it on any text model. What cannot map is listed in `dropped`, never refused;
 * a hosted tool the upstream cannot run is a 400 naming it.
 */
import type {
  CreateResponseRequest,
  ResponseContentPart,
  ResponseInputItem,
  ResponseTool,
} from '@modelgate/core';
import { badRequest } from '../../errors/api-error.js';
import type {
  ChatContentPart,
  ChatMessage,
  ChatRequest,
  ChatTool,
  OpenAiToolCall,
} from '../wire.js';

/** Fields a chat request has no place for: the gateway keeps or ignores them. */
const NOT_SENT = ['store', 'include', 'truncation', 'previous_response_id', 'metadata'] as const;

export interface ChatPivot {
  body: ChatRequest;
  /** Response-format fields the chat request does not carry. */
  dropped: string[];
}

/** The request's `input` as items (a string is one user message). */
export function inputItems(input: CreateResponseRequest['input']): ResponseInputItem[] {
  if (input === undefined) return [];
  if (typeof input === 'string') return [{ type: 'message', role: 'user', content: input }];
  return input;
}

/** How a dropped item or part is named in `x-modelgate-dropped-params`: its place, then its kind. */
const droppedName = (place: string, type: string) => `${place}(${type})`;

function partOf(part: ResponseContentPart, at: string): ChatContentPart | null {
  switch (part.type) {
    case 'input_text':
    case 'output_text':
    case 'text':
    case 'refusal':
      return { type: 'text', text: part.text ?? '' };
    case 'input_image':
      if (!part.image_url)
        throw badRequest(`${at}: only images given by image_url can be sent.`, at, 'invalid_value');
      return { type: 'image_url', image_url: { url: part.image_url } };
    case 'input_file':
      // A file's text is not readable here: its name stands in, so the model knows it was there.
      return { type: 'text', text: `[file: ${part.filename ?? part.file_id ?? 'attached'}]` };
    default:
      return null;
  }
}

function contentOf(
  content: ResponseInputItem['content'],
  at: string,
  dropped: Set<string>,
): string | ChatContentPart[] {
  if (content === undefined) return '';
  if (typeof content === 'string') return content;
  return content.flatMap((p, i) => {
    const part = partOf(p, `${at}.content[${i}]`);
    if (part === null) dropped.add(droppedName('input.*.content.*', p.type));
    return part ?? [];
  });
}

function textOnly(content: string | ChatContentPart[]): string {
  if (typeof content === 'string') return content;
  return content.map((p) => (p.type === 'text' ? p.text : '')).join('');
}

/**
 * Appends one input item to the chat messages (tool calls join the assistant turn before them).
 * An item or part of a kind chat has no place for is named in `dropped`.
 */
function pushItem(
  messages: ChatMessage[],
  item: ResponseInputItem,
  at: string,
  dropped: Set<string>,
): void {
  const type = item.type ?? 'message';
  if (type === 'message') {
    const role = item.role ?? 'user';
    const content = contentOf(item.content, at, dropped);
    if (role === 'assistant') messages.push({ role, content: textOnly(content) });
    else messages.push({ role, content });
    return;
  }
  if (type === 'function_call' || type === 'custom_tool_call') {
    const call: OpenAiToolCall = {
      id: item.call_id ?? item.id ?? '',
      type: 'function',
      function: {
        name:
          typeof item.namespace === 'string'
            ? namespacedName(item.namespace, item.name ?? '')
            : (item.name ?? ''),
        arguments: item.arguments ?? customArgs(item.input),
      },
    };
    const last = messages[messages.length - 1];
    if (last?.role === 'assistant' && 'tool_calls' in last && last.tool_calls) {
      last.tool_calls.push(call);
    } else {
      const content = last?.role === 'assistant' && !('tool_calls' in last) ? last.content : null;
      if (content !== null) messages.pop();
      messages.push({ role: 'assistant', content, tool_calls: [call] });
    }
    return;
  }
  if (type === 'function_call_output' || type === 'custom_tool_call_output') {
    const output = item.output ?? '';
    messages.push({
      role: 'tool',
      tool_call_id: item.call_id ?? '',
      content: typeof output === 'string' ? output : textOnly(contentOf(output, at, dropped)),
    });
    return;
  }
  // A compaction item (from /v1/responses/compact) holds the summary of the turns it replaces.
  if (type === 'compaction') {
    const summary = String(item.encrypted_content ?? '');
    messages.push({ role: 'user', content: `Summary of the conversation so far: ${summary}` });
    return;
  }
  // Reasoning items carry the model's own state; a chat upstream cannot take it.
  if (type === 'reasoning') return;
  // Another kind (`mcp_list_tools`, `item_reference`, …) is the vendor's: a native upstream gets
  // it as sent (the request passes through), a translation leaves it out and says so.
  dropped.add(droppedName('input.*', type));
}

/** A custom tool's free-form input as the one string argument of its chat function. */
function customArgs(input: string | undefined): string {
  return JSON.stringify({ input: input ?? '' });
}

/** A namespaced tool's chat function name: `namespace__name` (chat names allow `[a-zA-Z0-9_-]`). */
export function namespacedName(namespace: string, name: string): string {
  return `${namespace}__${name}`;
}

/**
 * Function tools map one to one; a custom tool becomes a function taking one string, `input`; a
 * namespace's tools become functions named `namespace__name`.
 */
function toolsOf(tool: ResponseTool, i: number): ChatTool[] {
  const name = tool.name ?? '';
  const description = tool.description ? { description: tool.description } : {};
  if (tool.type === 'function')
    return [
      {
        type: 'function',
        function: {
          name,
          ...description,
          parameters: tool.parameters ?? { type: 'object', properties: {} },
          ...(tool.strict != null ? { strict: tool.strict } : {}),
        },
      },
    ];
  if (tool.type === 'custom')
    return [
      {
        type: 'function',
        function: {
          name,
          ...description,
          parameters: {
            type: 'object',
            properties: { input: { type: 'string' } },
            required: ['input'],
          },
        },
      },
    ];
  if (tool.type === 'namespace' && Array.isArray(tool.tools))
    return (tool.tools as ResponseTool[]).flatMap((inner, j) =>
      toolsOf({ ...inner, name: namespacedName(name, inner.name ?? '') }, j),
    );
  throw badRequest(
    `tools[${i}]: the hosted tool "${tool.type}" cannot run on this gateway's upstreams; only function, custom and namespace tools are supported.`,
    `tools[${i}].type`,
    'unsupported_tool',
  );
}

function toolChoiceOf(choice: CreateResponseRequest['tool_choice']): ChatRequest['tool_choice'] {
  if (choice === undefined || typeof choice === 'string') return choice;
  if (choice.name) return { type: 'function', function: { name: choice.name } };
  throw badRequest(
    `tool_choice of type "${choice.type}" is not supported.`,
    'tool_choice',
    'invalid_value',
  );
}

function responseFormatOf(body: CreateResponseRequest): ChatRequest['response_format'] {
  const format = body.text?.format;
  if (!format || format.type === 'text') return undefined;
  if (format.type === 'json_object') return { type: 'json_object' };
  return {
    type: 'json_schema',
    json_schema: {
      name: format.name ?? 'response',
      ...(format.schema ? { schema: format.schema } : {}),
      ...(format.strict != null ? { strict: format.strict } : {}),
    },
  };
}

/**
 * The chat request for a responses request whose conversation so far is `history` (the items of
 * the previous responses, oldest first, outputs included).
 *
 * @example
 * toChat({ model: 'claude-haiku-4-5', input: 'Hi', instructions: 'Be brief.' }, []).body.messages;
 * // [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Hi' }]
 */
export function toChat(body: CreateResponseRequest, history: ResponseInputItem[]): ChatPivot {
  const messages: ChatMessage[] = [];
  const droppedItems = new Set<string>();
  if (body.instructions) messages.push({ role: 'system', content: body.instructions });
  for (const [i, item] of history.entries())
    pushItem(messages, item, `previous_response_id.items[${i}]`, droppedItems);
  for (const [i, item] of inputItems(body.input).entries())
    pushItem(messages, item, `input[${i}]`, droppedItems);
  if (messages.length === 0)
    throw badRequest('input must hold at least one item.', 'input', 'missing_required_parameter');
  const tools = body.tools?.flatMap(toolsOf);
  const chat: ChatRequest = { model: body.model, messages };
  if (tools && tools.length > 0) chat.tools = tools;
  const choice = toolChoiceOf(body.tool_choice);
  if (choice !== undefined && chat.tools) chat.tool_choice = choice;
  if (body.parallel_tool_calls != null && chat.tools)
    chat.parallel_tool_calls = body.parallel_tool_calls;
  if (body.max_output_tokens != null) chat.max_completion_tokens = body.max_output_tokens;
  if (body.temperature != null) chat.temperature = body.temperature;
  if (body.top_p != null) chat.top_p = body.top_p;
  const format = responseFormatOf(body);
  if (format) chat.response_format = format;
  if (body.reasoning?.effort) chat.reasoning_effort = body.reasoning.effort;
  if (body.stream) {
    chat.stream = true;
    chat.stream_options = { include_usage: true };
  }
  const dropped = NOT_SENT.filter((f) => body[f] !== undefined && body[f] !== null);
  if (body.reasoning?.summary) dropped.push('reasoning.summary' as never);
  return { body: chat, dropped: [...dropped, ...droppedItems] };
}
