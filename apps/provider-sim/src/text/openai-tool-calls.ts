// Chat answers the simulated model gives as tool calls: one non-streamed message, or the calls
// streamed as deltas (name first, then the arguments in fragments).
import type { Ctx } from '../context.js';
import { applyLatency, dataFrame, type Frame, sendStream } from '../respond.js';
import { newId } from './common.js';
import {
  type AnswerHead,
  answerHead,
  type ChatUsage,
  FINGERPRINT,
  type PromptTokens,
  sendChatCompletion,
  usageOf,
} from './openai-answer.js';
import type { CommonFields } from './openai-request.js';
import { countTokens } from './tokens.js';
import { jsonPieces, type SimToolCall } from './tools.js';

/** A tool call as a chat answer carries it. */
interface ChatToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

/** A chat answer that is tool calls only (finish reason `tool_calls`), streamed or not. */
export async function answerWithToolCalls(
  ctx: Ctx,
  model: string,
  calls: SimToolCall[],
  common: CommonFields,
  prompt: PromptTokens,
): Promise<void> {
  const head = answerHead('chatcmpl-', model);
  const toolCalls: ChatToolCall[] = calls.map((call) => ({
    id: newId('call_'),
    type: 'function',
    function: { name: call.name, arguments: call.json },
  }));
  const perChoice = countTokens(calls.map((c) => c.name + c.json).join(''));
  const usage = usageOf(prompt, perChoice * common.n);
  const choices = Array.from({ length: common.n }, (_, index) => index);

  if (!common.stream) {
    await applyLatency(ctx);
    sendChatCompletion(
      ctx,
      head,
      choices.map((index) => ({
        index,
        message: {
          role: 'assistant',
          content: null,
          refusal: null,
          tool_calls: toolCalls,
          annotations: [],
        },
        logprobs: null,
        finish_reason: 'tool_calls',
      })),
      usage,
    );
    return;
  }
  await sendStream(ctx, toolCallFrames(head, toolCalls, choices, common.includeUsage, usage));
}

/** Each choice streams its calls, then the usage chunk when asked and `[DONE]`. */
function toolCallFrames(
  answer: AnswerHead,
  toolCalls: ChatToolCall[],
  choices: number[],
  includeUsage: boolean,
  usage: ChatUsage,
): Frame[] {
  const head = {
    id: answer.id,
    object: 'chat.completion.chunk',
    created: answer.created,
    model: answer.model,
    system_fingerprint: FINGERPRINT,
  };
  const chunk = (index: number, delta: unknown, finish: string | null) =>
    JSON.stringify({
      ...head,
      choices: [{ index, delta, logprobs: null, finish_reason: finish }],
      ...(includeUsage ? { usage: null } : {}),
    });
  const frames: Frame[] = [];
  for (const index of choices) {
    frames.push(dataFrame(chunk(index, { role: 'assistant', content: null, refusal: null }, null)));
    toolCalls.forEach((call, i) => {
      // The first piece names the call; the arguments follow a few characters at a time.
      const opening = {
        index: i,
        id: call.id,
        type: 'function',
        function: { name: call.function.name, arguments: '' },
      };
      frames.push(dataFrame(chunk(index, { tool_calls: [opening] }, null)));
      for (const piece of jsonPieces(call.function.arguments)) {
        const delta = { tool_calls: [{ index: i, function: { arguments: piece } }] };
        frames.push(dataFrame(chunk(index, delta, null), true));
      }
    });
    frames.push(dataFrame(chunk(index, {}, 'tool_calls')));
  }
  if (includeUsage) frames.push(dataFrame(JSON.stringify({ ...head, choices: [], usage })));
  frames.push(dataFrame('[DONE]'));
  return frames;
}
