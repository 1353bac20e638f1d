// `POST /responses`: OpenAI's Responses API (docs/providers.md#1-openai). The answer is a list of
// output items — an optional `reasoning` item, then either a `message` with one `output_text`
// part or the tool calls the simulated model makes (tools.ts decides, as on the chat side) — non
// streamed, or as the real event sequence, every event numbered by `sequence_number`. Shapes follow
// the `openai` SDK's Responses types (see the README for the version). Fields the simulator does
// not act on (`client_metadata`, `prompt_cache_key`, `include`, `store`…) are accepted and ignored.

import type { Ctx } from '../context.js';
import { badRequest, isRecord } from '../errors.js';
import { applyLatency, eventFrame, type Frame, sendJson, sendStream } from '../respond.js';
import { newId, textOf } from './common.js';
import { generate } from './generate.js';
import { checkAuth, checkModel, maxTokensOf, numberIn } from './openai-request.js';
import { responsesSegments } from './prompt-segments.js';
import { countTokens } from './tokens.js';
import { jsonAnswer, planToolCalls, type SimTool, type SimToolChoice } from './tools.js';

type Item = Record<string, unknown>;

/** What the request asks, once checked. */
interface ResponsesRequest {
  body: Record<string, unknown>;
  model: string;
  key: string;
  endsWithToolResult: boolean;
  inputTokens: number;
  tools: SimTool[];
  custom: Set<string>;
  choice: SimToolChoice;
  maxTokens: number | undefined;
  reasoning: { effort: string; summary: boolean } | null;
}

const CALL_OUTPUTS = new Set(['function_call_output', 'custom_tool_call_output']);

function readInput(input: unknown): { key: string; endsWithToolResult: boolean } {
  if (typeof input === 'string') return { key: input, endsWithToolResult: false };
  if (!Array.isArray(input))
    throw badRequest("Missing required parameter: 'input'.", 'input', 'missing_required_parameter');
  let key = '';
  for (const item of input) {
    if (isRecord(item) && item.role === 'user') key = textOf(item.content);
  }
  const last: unknown = input[input.length - 1];
  const endsWithToolResult = isRecord(last) && CALL_OUTPUTS.has(String(last.type));
  return { key, endsWithToolResult };
}

function readTools(body: Record<string, unknown>): Pick<ResponsesRequest, 'tools' | 'custom'> {
  const tools: SimTool[] = [];
  const custom = new Set<string>();
  const raw = body.tools ?? [];
  if (!Array.isArray(raw))
    throw badRequest("Invalid type for 'tools': expected an array.", 'tools', 'invalid_type');
  raw.forEach((tool, i) => {
    if (!isRecord(tool) || typeof tool.name !== 'string' || tool.name === '') {
      if (isRecord(tool) && tool.type !== 'function' && tool.type !== 'custom') return;
      throw badRequest(
        `Missing required parameter: 'tools[${i}].name'.`,
        `tools[${i}].name`,
        'missing_required_parameter',
      );
    }
    if (tool.type === 'function') tools.push({ name: tool.name, schema: tool.parameters });
    if (tool.type === 'custom') {
      custom.add(tool.name);
      tools.push({ name: tool.name, schema: null });
    }
  });
  return { tools, custom };
}

function readChoice(raw: unknown, parallel: boolean): SimToolChoice {
  if (raw === undefined || raw === null) return { mode: 'auto', parallel };
  if (raw === 'none' || raw === 'auto' || raw === 'required') return { mode: raw, parallel };
  if (isRecord(raw) && typeof raw.name === 'string')
    return { mode: 'named', name: raw.name, parallel };
  throw badRequest("Invalid value for 'tool_choice'.", 'tool_choice', 'invalid_value');
}

function readResponsesRequest(ctx: Ctx): ResponsesRequest {
  checkAuth(ctx);
  if (!isRecord(ctx.body))
    throw badRequest(
      'We could not parse the JSON body of your request. The body must be a JSON object.',
    );
  const body = ctx.body;
  const model = checkModel(body.model);
  const { key, endsWithToolResult } = readInput(body.input);
  numberIn(body, 'temperature', 0, 2);
  numberIn(body, 'top_p', 0, 1);
  const { tools, custom } = readTools(body);
  const choice = readChoice(body.tool_choice, body.parallel_tool_calls !== false);
  const effort = isRecord(body.reasoning) ? body.reasoning.effort : undefined;
  const reasoning =
    typeof effort === 'string' && effort !== 'none'
      ? { effort, summary: isRecord(body.reasoning) && typeof body.reasoning.summary === 'string' }
      : null;
  const inputTokens = countTokens(
    JSON.stringify([body.instructions ?? '', body.input, body.tools ?? []]),
  );
  const maxTokens = maxTokensOf(body, 'max_output_tokens');
  return {
    body,
    model,
    key,
    endsWithToolResult,
    inputTokens,
    tools,
    custom,
    choice,
    maxTokens,
    reasoning,
  };
}

/** The output items of the answer, and its output and reasoning token counts. */
function outputOf(ctx: Ctx, request: ResponsesRequest) {
  const items: Item[] = [];
  let reasoningTokens = 0;
  if (request.reasoning) {
    const summary = `Thinking about: ${request.key.slice(0, 60)}`;
    reasoningTokens = countTokens(summary) * 4;
    items.push({
      id: newId('rs_'),
      type: 'reasoning',
      summary: request.reasoning.summary ? [{ type: 'summary_text', text: summary }] : [],
    });
  }
  const calls = planToolCalls(
    request.tools,
    request.choice,
    request.key,
    request.endsWithToolResult,
  );
  let outputTokens = reasoningTokens;
  let incomplete = false;
  if (calls !== null) {
    for (const call of calls) {
      outputTokens += countTokens(call.name + call.json);
      const isCustom = request.custom.has(call.name);
      items.push({
        id: newId(isCustom ? 'ctc_' : 'fc_'),
        type: isCustom ? 'custom_tool_call' : 'function_call',
        status: 'completed',
        call_id: newId('call_'),
        name: call.name,
        ...(isCustom ? { input: request.key.slice(0, 40) || 'input' } : { arguments: call.json }),
      });
    }
  } else {
    const g = generate(request.key, ctx.sim.options.outputTokens, request.maxTokens, []);
    const format = isRecord(request.body.text) ? request.body.text.format : undefined;
    const json = isRecord(format)
      ? jsonAnswer({ ...format, json_schema: { schema: format.schema } }, request.key, g.text)
      : null;
    const text = json ?? g.text;
    incomplete = json === null && g.finish === 'length';
    outputTokens += countTokens(text);
    items.push({
      id: newId('msg_'),
      type: 'message',
      status: incomplete ? 'incomplete' : 'completed',
      role: 'assistant',
      content: [{ type: 'output_text', text, annotations: [], logprobs: [] }],
    });
  }
  return { items, outputTokens, reasoningTokens, incomplete };
}

function responseObject(request: ResponsesRequest, id: string, created: number) {
  const { body } = request;
  return {
    id,
    object: 'response',
    created_at: created,
    status: 'in_progress',
    background: false,
    error: null,
    incomplete_details: null,
    instructions: body.instructions ?? null,
    max_output_tokens: body.max_output_tokens ?? null,
    model: request.model,
    output: [] as Item[],
    parallel_tool_calls: body.parallel_tool_calls ?? true,
    previous_response_id: body.previous_response_id ?? null,
    reasoning: { effort: request.reasoning?.effort ?? null, summary: null },
    store: body.store ?? true,
    temperature: body.temperature ?? 1,
    text: body.text ?? { format: { type: 'text' } },
    tool_choice: body.tool_choice ?? 'auto',
    tools: body.tools ?? [],
    top_p: body.top_p ?? 1,
    truncation: body.truncation ?? 'disabled',
    usage: null as unknown,
    metadata: body.metadata ?? {},
  };
}

export async function responses(ctx: Ctx): Promise<void> {
  const request = readResponsesRequest(ctx);
  const { items, outputTokens, reasoningTokens, incomplete } = outputOf(ctx, request);
  const shell = responseObject(request, newId('resp_'), Math.floor(Date.now() / 1000));
  const done = {
    ...shell,
    status: incomplete ? 'incomplete' : 'completed',
    incomplete_details: incomplete ? { reason: 'max_output_tokens' } : null,
    output: items,
    usage: {
      input_tokens: request.inputTokens,
      input_tokens_details: {
        cached_tokens: ctx.sim.promptCache.openai(
          `openai:${request.model}`,
          responsesSegments(request.body),
          request.inputTokens,
        ),
      },
      output_tokens: outputTokens,
      output_tokens_details: { reasoning_tokens: reasoningTokens },
      total_tokens: request.inputTokens + outputTokens,
    },
  };
  if (request.body.stream !== true) {
    await applyLatency(ctx);
    sendJson(ctx, 200, done);
    return;
  }
  await sendStream(ctx, streamFrames(shell, items, done));
}

/** The event sequence of one response, numbered from 0. */
function streamFrames(shell: Item, items: Item[], done: Item): Frame[] {
  const frames: Frame[] = [];
  let sequence = 0;
  const emit = (data: Item, token = false) =>
    frames.push(eventFrame(String(data.type), { ...data, sequence_number: sequence++ }, token));
  emit({ type: 'response.created', response: shell });
  emit({ type: 'response.in_progress', response: shell });
  for (const [outputIndex, item] of items.entries()) itemEvents(emit, item, outputIndex);
  const last = done.status === 'incomplete' ? 'response.incomplete' : 'response.completed';
  emit({ type: last, response: done });
  return frames;
}

type Emit = (data: Item, token?: boolean) => void;

function itemEvents(emit: Emit, item: Item, output_index: number): void {
  const item_id = String(item.id);
  const opening =
    item.type === 'message'
      ? { ...item, status: 'in_progress', content: [] }
      : item.type === 'function_call'
        ? { ...item, status: 'in_progress', arguments: '' }
        : item;
  emit({ type: 'response.output_item.added', output_index, item: opening });
  if (item.type === 'message') {
    const part = (item.content as Item[])[0]!;
    const text = String(part.text);
    const at = { item_id, output_index, content_index: 0 };
    emit({ type: 'response.content_part.added', ...at, part: { ...part, text: '' } });
    for (const delta of text.match(/\S+\s*|\s+/g) ?? [])
      emit({ type: 'response.output_text.delta', ...at, delta, logprobs: [] }, true);
    emit({ type: 'response.output_text.done', ...at, text, logprobs: [] });
    emit({ type: 'response.content_part.done', ...at, part });
  } else if (item.type === 'function_call') {
    const args = String(item.arguments);
    for (let i = 0; i < args.length; i += 6)
      emit(
        {
          type: 'response.function_call_arguments.delta',
          item_id,
          output_index,
          delta: args.slice(i, i + 6),
        },
        true,
      );
    emit({
      type: 'response.function_call_arguments.done',
      item_id,
      output_index,
      name: item.name,
      arguments: args,
    });
  }
  emit({ type: 'response.output_item.done', output_index, item });
}
