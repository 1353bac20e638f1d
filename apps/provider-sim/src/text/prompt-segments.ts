// The prompts of each API as the cache sees them (prompt-cache.ts): blocks in cache order, each with
// roughly the tokens the simulator's own count gives it and its `cache_control` breakpoint.
import { isRecord } from '../errors.js';
import { sourcedText, textOf } from './common.js';
import { breakpointOf, type PromptSegment } from './prompt-cache.js';
import { countTokens } from './tokens.js';

const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

/** The tokens the simulator counts for one Anthropic content block. */
function anthropicBlockTokens(block: unknown): number {
  if (!isRecord(block)) return 0;
  if (typeof block.text === 'string') return countTokens(block.text);
  if (block.type === 'tool_use') return countTokens(JSON.stringify(block.input ?? {}));
  if (block.type === 'tool_result') return countTokens(textOf(block.content));
  return countTokens(sourcedText(block));
}

/** A Messages request: tools, then system blocks, then each turn's blocks. */
export function anthropicSegments(body: Record<string, unknown>): PromptSegment[] {
  const segments: PromptSegment[] = list(body.tools).map((tool) => ({
    content: tool,
    tokens: countTokens(JSON.stringify(tool)),
    breakpoint: breakpointOf(tool),
  }));
  const system =
    typeof body.system === 'string' ? [{ type: 'text', text: body.system }] : list(body.system);
  for (const block of system) {
    segments.push({
      content: block,
      tokens: anthropicBlockTokens(block),
      breakpoint: breakpointOf(block),
    });
  }
  for (const message of list(body.messages)) {
    if (!isRecord(message)) continue;
    const content =
      typeof message.content === 'string'
        ? [{ type: 'text', text: message.content }]
        : list(message.content);
    content.forEach((block, i) => {
      segments.push({
        content: [message.role, block],
        // The turn's framing tokens go with its first block.
        tokens: (i === 0 ? 3 : 0) + anthropicBlockTokens(block),
        breakpoint: breakpointOf(block),
      });
    });
  }
  return segments;
}

/** A chat request: the tools, then each message. */
export function chatSegments(body: Record<string, unknown>): PromptSegment[] {
  const segments: PromptSegment[] = [];
  if (body.tools !== undefined) {
    segments.push({
      content: body.tools,
      tokens: countTokens(JSON.stringify(body.tools)),
      breakpoint: null,
    });
  }
  for (const message of list(body.messages)) {
    const calls =
      isRecord(message) && Array.isArray(message.tool_calls) ? message.tool_calls : null;
    const text = isRecord(message) ? textOf(message.content) : '';
    segments.push({
      content: message,
      tokens: 3 + countTokens(text) + (calls ? countTokens(JSON.stringify(calls)) : 0),
      breakpoint: null,
    });
  }
  return segments;
}

/** A Responses request: instructions, tools, then each input item. */
export function responsesSegments(body: Record<string, unknown>): PromptSegment[] {
  const items = typeof body.input === 'string' ? [body.input] : list(body.input);
  return [body.instructions ?? '', body.tools ?? [], ...items].map((content) => ({
    content,
    tokens: countTokens(JSON.stringify(content)),
    breakpoint: null,
  }));
}
