// `POST /chat/completions`: the request read in the real API's order, then a text answer (one
// choice per `n`, in the `response_format` asked), non-streamed or as chunks; tool calls are
// answered by openai-tool-calls.ts.
import type { Ctx } from '../context.js';
import { badRequest, isRecord } from '../errors.js';
import { applyLatency, dataFrame, type Frame, sendStream } from '../respond.js';
import { jsonGeneration } from './common.js';
import { type Generation, generate } from './generate.js';
import { acknowledgeImages } from './images.js';
import {
  type AnswerHead,
  answerHead,
  FINGERPRINT,
  type PromptTokens,
  sendChatCompletion,
  usageOf,
} from './openai-answer.js';
import { type ChatPrompt, readMessages } from './openai-messages.js';
import {
  type CommonFields,
  commonFields,
  maxTokensOf,
  numberIn,
  readRequest,
  SHARED_FIELDS,
} from './openai-request.js';
import { answerWithToolCalls } from './openai-tool-calls.js';
import { readTools } from './openai-tools.js';
import { chatSegments } from './prompt-segments.js';
import { countTokens } from './tokens.js';
import { jsonAnswer, planToolCalls, type SimTool, type SimToolChoice } from './tools.js';

/** The fields the real API takes; it refuses any other with "Unrecognized request argument". */
const CHAT_FIELDS = new Set([
  ...SHARED_FIELDS,
  'messages',
  'max_completion_tokens',
  'max_tokens',
  'seed',
  'logit_bias',
  'logprobs',
  'top_logprobs',
  'tools',
  'tool_choice',
  'parallel_tool_calls',
  'response_format',
  'user',
  'service_tier',
  'metadata',
  'store',
  'modalities',
  'audio',
  'prediction',
  'reasoning_effort',
  'verbosity',
  'web_search_options',
  'prompt_cache_key',
  'safety_identifier',
  'functions',
  'function_call',
]);

/** A chat request once checked. */
interface ChatRequest {
  body: Record<string, unknown>;
  model: string;
  prompt: ChatPrompt;
  common: CommonFields;
  maxTokens: number | undefined;
  tools: SimTool[];
  choice: SimToolChoice;
}

/** Checks a chat request field by field, in the order the real API reports the first error. */
function readChatRequest(ctx: Ctx): ChatRequest {
  const { body, model } = readRequest(ctx, CHAT_FIELDS);
  const prompt = readMessages(body.messages);
  const common = commonFields(body);
  numberIn(body, 'top_logprobs', 0, 20, true);
  const maxTokens = maxTokensOf(body, 'max_completion_tokens') ?? maxTokensOf(body, 'max_tokens');
  const { tools, choice } = readTools(body);
  if (tools.length > 0) prompt.promptTokens += countTokens(JSON.stringify(body.tools));
  return { body, model, prompt, common, maxTokens, tools, choice };
}

export async function chatCompletions(ctx: Ctx): Promise<void> {
  const request = readChatRequest(ctx);
  const { prompt, common } = request;
  const input: PromptTokens = {
    total: prompt.promptTokens,
    cached: ctx.sim.promptCache.openai(
      `openai:${request.model}`,
      chatSegments(request.body),
      prompt.promptTokens,
    ),
  };
  const calls = planToolCalls(request.tools, request.choice, prompt.key, prompt.endsWithToolResult);
  if (calls !== null) {
    await answerWithToolCalls(ctx, request.model, calls, common, input);
    return;
  }

  const generations = generateChoices(ctx, request);
  const head = answerHead('chatcmpl-', request.model);
  if (!common.stream) {
    await applyLatency(ctx);
    sendTextCompletion(ctx, head, generations, input);
    return;
  }
  const frames = textChunkFrames(head, generations, common.includeUsage, input);
  await sendStream(ctx, frames);
}

/** One generation per choice (`n`), opened with the images seen, in the `response_format` asked. */
function generateChoices(ctx: Ctx, request: ChatRequest): Generation[] {
  const { prompt, common } = request;
  const defaultTokens = ctx.sim.options.outputTokens;
  const generations: Generation[] = [];
  for (let i = 0; i < common.n; i++) {
    const g = generate(prompt.key, defaultTokens, request.maxTokens, common.stop, i);
    const seen = acknowledgeImages(g, prompt.images);
    generations.push(asResponseFormat(request.body.response_format, prompt.key, seen));
  }
  return generations;
}

/** A generation in the requested `response_format`: JSON text, streamed a few characters a piece. */
function asResponseFormat(format: unknown, key: string, g: Generation): Generation {
  if (format !== undefined && format !== null && !isRecord(format))
    throw badRequest(
      "Invalid type for 'response_format': expected an object.",
      'response_format',
      'invalid_type',
    );
  const json = jsonAnswer(format, key, g.text);
  if (json === null) return g;
  return jsonGeneration(json);
}

function sendTextCompletion(
  ctx: Ctx,
  head: AnswerHead,
  generations: Generation[],
  prompt: PromptTokens,
): void {
  let completionTokens = 0;
  const choices = generations.map((g, index) => {
    completionTokens += countTokens(g.text);
    return {
      index,
      message: { role: 'assistant', content: g.text, refusal: null, annotations: [] },
      logprobs: null,
      finish_reason: g.finish,
    };
  });
  sendChatCompletion(ctx, head, choices, usageOf(prompt, completionTokens));
}

/** Each choice streamed a token a chunk, then the usage chunk when asked and `[DONE]`. */
function textChunkFrames(
  answer: AnswerHead,
  generations: Generation[],
  includeUsage: boolean,
  prompt: PromptTokens,
): Frame[] {
  const chunkHead = {
    id: answer.id,
    object: 'chat.completion.chunk',
    created: answer.created,
    model: answer.model,
    service_tier: 'default',
    system_fingerprint: FINGERPRINT,
  };
  // Chunks differ only in `choices`: serialize the shared head once and splice the rest in, since
  // this loop runs once per token on the benchmarks' hot path.
  const head = JSON.stringify(chunkHead).slice(0, -1);
  const tail = includeUsage ? ',"usage":null}' : '}';
  const frames: Frame[] = [];
  let completionTokens = 0;
  generations.forEach((g, index) => {
    pushChoiceFrames(frames, { head, tail }, g, index);
    completionTokens += countTokens(g.text);
  });
  if (includeUsage) {
    const usage = usageOf(prompt, completionTokens);
    frames.push(dataFrame(JSON.stringify({ ...chunkHead, choices: [], usage })));
  }
  frames.push(dataFrame('[DONE]'));
  return frames;
}

/** The chunks of one choice: the role, one chunk per piece, then the finish reason. */
function pushChoiceFrames(
  frames: Frame[],
  chunkText: { head: string; tail: string },
  g: Generation,
  index: number,
): void {
  const { head, tail } = chunkText;
  const chunk = (choices: unknown[]) => `${head},"choices":${JSON.stringify(choices)}${tail}`;
  frames.push(
    dataFrame(
      chunk([
        {
          index,
          delta: { role: 'assistant', content: '', refusal: null },
          logprobs: null,
          finish_reason: null,
        },
      ]),
    ),
  );
  const pieceHead = `${head},"choices":[{"index":${index},"delta":{"content":`;
  const pieceTail = `},"logprobs":null,"finish_reason":null}]${tail}`;
  for (const piece of g.pieces) {
    frames.push({
      text: `data: ${pieceHead}${JSON.stringify(piece)}${pieceTail}\n\n`,
      token: true,
    });
  }
  frames.push(dataFrame(chunk([{ index, delta: {}, logprobs: null, finish_reason: g.finish }])));
}
