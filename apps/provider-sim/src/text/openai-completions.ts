// `POST /completions`: the legacy text completions, one choice per prompt and `n`, non-streamed or
// as chunks (`echo` repeats each prompt first).
import type { Ctx } from '../context.js';
import { badRequest } from '../errors.js';
import { applyLatency, dataFrame, type Frame, sendJson, sendStream } from '../respond.js';
import { type Generation, generate } from './generate.js';
import { type AnswerHead, answerHead, FINGERPRINT, RATE_LIMIT_HEADERS } from './openai-answer.js';
import {
  booleanField,
  type CommonFields,
  commonFields,
  maxTokensOf,
  numberIn,
  readRequest,
  SHARED_FIELDS,
} from './openai-request.js';
import { countTokens } from './tokens.js';

const COMPLETION_FIELDS = new Set([
  ...SHARED_FIELDS,
  'prompt',
  'max_tokens',
  'seed',
  'logit_bias',
  'logprobs',
  'user',
  'suffix',
  'echo',
  'best_of',
]);

/** One choice: its generation and the prompt it answers. */
interface Completion {
  g: Generation;
  prompt: string;
}

interface CompletionUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

export async function completions(ctx: Ctx): Promise<void> {
  const { body, model } = readRequest(ctx, COMPLETION_FIELDS);
  const prompts = readPrompt(body.prompt);
  const common = commonFields(body);
  numberIn(body, 'logprobs', 0, 5, true);
  numberIn(body, 'best_of', 1, 20, true);
  const echo = booleanField(body, 'echo') ?? false;
  // Legacy completions default to 16 tokens.
  const maxTokens = maxTokensOf(body, 'max_tokens') ?? 16;

  const head = answerHead('cmpl-', model);
  const { generations, usage } = generateCompletions(ctx, prompts, common, maxTokens);
  if (!common.stream) {
    await applyLatency(ctx);
    sendCompletion(ctx, head, generations.map(choiceOf(echo)), usage);
    return;
  }
  await sendStream(ctx, completionFrames(head, generations, echo, common.includeUsage, usage));
}

function readPrompt(value: unknown): string[] {
  if (value === undefined || value === null)
    throw badRequest(
      "Missing required parameter: 'prompt'.",
      'prompt',
      'missing_required_parameter',
    );
  if (typeof value === 'string') return [value];
  if (Array.isArray(value) && value.length > 0) {
    if (value.every((p) => typeof p === 'string')) return value as string[];
    // Token arrays: one prompt of numbers, or many.
    if (value.every((p) => typeof p === 'number')) return [value.join(' ')];
    if (value.every((p) => Array.isArray(p) && p.every((t) => typeof t === 'number')))
      return value.map((p) => (p as number[]).join(' '));
  }
  throw badRequest(
    "Invalid 'prompt': expected a string, an array of strings, or token arrays.",
    'prompt',
    'invalid_value',
  );
}

/** `n` generations per prompt, and the tokens they count. */
function generateCompletions(
  ctx: Ctx,
  prompts: string[],
  common: CommonFields,
  maxTokens: number,
): { generations: Completion[]; usage: CompletionUsage } {
  let promptTokens = 0;
  let completionTokens = 0;
  const generations: Completion[] = [];
  for (const prompt of prompts) {
    promptTokens += countTokens(prompt);
    for (let i = 0; i < common.n; i++) {
      const g = generate(prompt, ctx.sim.options.outputTokens, maxTokens, common.stop, i);
      completionTokens += countTokens(g.text);
      generations.push({ g, prompt });
    }
  }
  const usage = {
    prompt_tokens: promptTokens,
    completion_tokens: completionTokens,
    total_tokens: promptTokens + completionTokens,
  };
  return { generations, usage };
}

function choiceOf(echo: boolean) {
  return ({ g, prompt }: Completion, index: number) => ({
    text: echo ? prompt + g.text : g.text,
    index,
    logprobs: null,
    finish_reason: g.finish,
  });
}

function sendCompletion(
  ctx: Ctx,
  head: AnswerHead,
  choices: unknown[],
  usage: CompletionUsage,
): void {
  sendJson(
    ctx,
    200,
    {
      id: head.id,
      object: 'text_completion',
      created: head.created,
      model: head.model,
      choices,
      usage,
      system_fingerprint: FINGERPRINT,
    },
    RATE_LIMIT_HEADERS,
  );
}

/** Each choice streamed a piece a chunk, then the usage chunk when asked and `[DONE]`. */
function completionFrames(
  head: AnswerHead,
  generations: Completion[],
  echo: boolean,
  includeUsage: boolean,
  usage: CompletionUsage,
): Frame[] {
  const chunk = (index: number, text: string, finish: string | null) =>
    JSON.stringify({
      id: head.id,
      object: 'text_completion',
      created: head.created,
      model: head.model,
      choices: [{ text, index, logprobs: null, finish_reason: finish }],
      system_fingerprint: FINGERPRINT,
    });
  const frames: Frame[] = [];
  generations.forEach(({ g, prompt }, index) => {
    if (echo) frames.push(dataFrame(chunk(index, prompt, null)));
    for (const piece of g.pieces) frames.push(dataFrame(chunk(index, piece, null), true));
    frames.push(dataFrame(chunk(index, '', g.finish)));
  });
  if (includeUsage) {
    frames.push(
      dataFrame(
        JSON.stringify({
          id: head.id,
          object: 'text_completion',
          created: head.created,
          model: head.model,
          choices: [],
          usage,
          system_fingerprint: FINGERPRINT,
        }),
      ),
    );
  }
  frames.push(dataFrame('[DONE]'));
  return frames;
}
