// `POST /v1/messages`: a text answer (in JSON when the system prompt asks for it), non-streamed or
// as events; tool_use answers are made by anthropic-tool-use.ts.
import type { Ctx } from '../context.js';
import { applyLatency, eventFrame, type Frame, sendJson, sendStream } from '../respond.js';
import {
  type Message,
  messageBody,
  messageEndFrames,
  messageStartFrame,
  usageOf,
} from './anthropic-answer.js';
import { checkHeaders } from './anthropic-headers.js';
import { type ParsedMessages, parse } from './anthropic-request.js';
import {
  type ThinkingContent,
  thinkingBlocks,
  thinkingFrames,
  thinkingTokens,
} from './anthropic-thinking.js';
import { answerWithToolUse } from './anthropic-tool-use.js';
import { jsonGeneration, newId } from './common.js';
import { type Generation, generate } from './generate.js';
import { acknowledgeImages } from './images.js';
import { anthropicMinimum } from './prompt-cache.js';
import { anthropicSegments } from './prompt-segments.js';
import { countTokens } from './tokens.js';
import { jsonAnswerForSystem, planToolCalls } from './tools.js';

export async function messages(ctx: Ctx): Promise<void> {
  checkHeaders(ctx);
  const p = withPromptCache(ctx, parse(ctx.body));
  const calls = planToolCalls(p.tools, p.toolChoice, p.key, p.endsWithToolResult);
  if (calls !== null) {
    await answerWithToolUse(ctx, p, calls);
    return;
  }
  const g = asSystemAsks(
    p,
    acknowledgeImages(
      generate(p.key, ctx.sim.options.outputTokens, p.maxTokens, p.stopSequences),
      p.images,
    ),
  );
  const thinking = p.thinking ? thinkingBlocks(p.key) : [];
  const message: Message = {
    id: newId('msg_'),
    model: p.model,
    content: [...thinking, { type: 'text', text: g.text }],
    stopReason: stopReasonOf(g),
    stopSequence: g.stopSequence,
    usage: usageOf(p.input, countTokens(g.text) + thinkingTokens(thinking)),
  };

  if (!p.stream) {
    await applyLatency(ctx);
    sendJson(ctx, 200, messageBody(message));
    return;
  }
  await sendStream(ctx, textFrames(message, g, thinking));
}

function stopReasonOf(g: Generation): string {
  return g.stopSequence !== null
    ? 'stop_sequence'
    : g.finish === 'length'
      ? 'max_tokens'
      : 'end_turn';
}

/** The input split as Anthropic's prompt cache splits it (the body was checked by `parse`). */
function withPromptCache(ctx: Ctx, p: ParsedMessages): ParsedMessages {
  const body = ctx.body as Record<string, unknown>;
  const input = ctx.sim.promptCache.anthropic(
    `anthropic:${p.model}`,
    anthropicSegments(body),
    p.inputTokens,
    anthropicMinimum(p.model),
  );
  return { ...p, input };
}

/** The answer in JSON when the system prompt asks for JSON, streamed a few characters a piece. */
function asSystemAsks(p: ParsedMessages, g: Generation): Generation {
  const json = jsonAnswerForSystem(p.system, p.key, g.text);
  if (json === null) return g;
  return jsonGeneration(json);
}

/** The events of a text answer: the thinking blocks if any, then one text block, a delta per token. */
function textFrames(message: Message, g: Generation, thinking: ThinkingContent[]): Frame[] {
  const index = thinking.length;
  const frames: Frame[] = [
    messageStartFrame(message),
    ...thinkingFrames(thinking),
    eventFrame('content_block_start', {
      type: 'content_block_start',
      index,
      content_block: { type: 'text', text: '' },
    }),
    eventFrame('ping', { type: 'ping' }),
  ];
  // Rendered by hand: this runs once per token on the benchmarks' hot path.
  const deltaHead = `event: content_block_delta\ndata: {"type":"content_block_delta","index":${index},"delta":{"type":"text_delta","text":`;
  for (const piece of g.pieces) {
    frames.push({ text: `${deltaHead}${JSON.stringify(piece)}}}\n\n`, token: true });
  }
  frames.push(
    eventFrame('content_block_stop', { type: 'content_block_stop', index }),
    ...messageEndFrames(message),
  );
  return frames;
}
