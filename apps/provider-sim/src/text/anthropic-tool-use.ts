// Anthropic answers the simulated model gives as tool_use blocks: one non-streamed message, or the
// blocks streamed as events (each block's input in fragments).
import type { Ctx } from '../context.js';
import { applyLatency, eventFrame, type Frame, sendJson, sendStream } from '../respond.js';
import {
  type Message,
  messageBody,
  messageEndFrames,
  messageStartFrame,
  usageOf,
} from './anthropic-answer.js';
import type { ParsedMessages } from './anthropic-request.js';
import { newId } from './common.js';
import { countTokens } from './tokens.js';
import { jsonPieces, type SimToolCall } from './tools.js';

/** A tool_use block as a message carries it. */
interface ToolUseBlock {
  type: 'tool_use';
  id: string;
  name: string;
  input: Record<string, unknown>;
}

/** A message that is tool_use blocks only (stop reason `tool_use`), streamed or not. */
export async function answerWithToolUse(
  ctx: Ctx,
  p: ParsedMessages,
  calls: SimToolCall[],
): Promise<void> {
  const id = newId('msg_');
  const blocks: ToolUseBlock[] = calls.map((call) => ({
    type: 'tool_use',
    id: newId('toolu_'),
    name: call.name,
    input: call.input,
  }));
  const outputTokens = countTokens(calls.map((c) => c.name + c.json).join(''));
  const message: Message = {
    id,
    model: p.model,
    content: blocks,
    stopReason: 'tool_use',
    stopSequence: null,
    usage: usageOf(p.input, outputTokens),
  };
  if (!p.stream) {
    await applyLatency(ctx);
    sendJson(ctx, 200, messageBody(message));
    return;
  }
  await sendStream(ctx, toolUseFrames(message, blocks));
}

/** The events of a tool_use answer: per block its start, its input in fragments, its stop. */
function toolUseFrames(message: Message, blocks: ToolUseBlock[]): Frame[] {
  const frames: Frame[] = [messageStartFrame(message)];
  blocks.forEach((block, index) => {
    frames.push(
      eventFrame('content_block_start', {
        type: 'content_block_start',
        index,
        content_block: { ...block, input: {} },
      }),
    );
    if (index === 0) frames.push(eventFrame('ping', { type: 'ping' }));
    // The real API opens the arguments with an empty piece, then streams them in fragments.
    for (const piece of ['', ...jsonPieces(JSON.stringify(block.input))]) {
      const delta = { type: 'input_json_delta', partial_json: piece };
      frames.push(
        eventFrame(
          'content_block_delta',
          { type: 'content_block_delta', index, delta },
          piece !== '',
        ),
      );
    }
    frames.push(eventFrame('content_block_stop', { type: 'content_block_stop', index }));
  });
  frames.push(...messageEndFrames(message));
  return frames;
}
