/**
 * Chat completion request → Anthropic messages request: the turns come from
 * chat-to-anthropic-turns.ts, the parameters are mapped as request.ts says, and structured output
 * becomes a forced tool or a system instruction (response-format.ts).
 */
import { anthropicTurns } from './chat-to-anthropic-turns.js';
import { anthropicToolChoice, anthropicTools } from './request-tools.js';
import { responseFormatPlan } from './response-format.js';
import type { ChatRequest, MessagesRequest } from './wire.js';

/** What a translation needs from the model catalogue. */
export interface TranslationTarget {
  /** The upstream model id of the chosen deployment. */
  upstreamModel: string;
  /** Used when the client gave no max_tokens and the target requires one (Anthropic). */
  defaultMaxTokens: number;
}

/** Anthropic's temperature tops out at 1 (docs/providers.md#2-anthropic). */
const ANTHROPIC_MAX_TEMPERATURE = 1;

/** Normalises `stop` (string or array) to an array, or undefined when absent/empty. */
export function stopList(stop: string | string[] | null | undefined): string[] | undefined {
  if (stop == null) return undefined;
  const list = typeof stop === 'string' ? [stop] : stop;
  return list.length > 0 ? list : undefined;
}

/**
 * Chat completion request → Anthropic messages request.
 *
 * @example
 * chatToAnthropicRequest({ model: 'x', messages: [{ role: 'system', content: 'Be brief' },
 *   { role: 'user', content: 'Hi' }], temperature: 1.6 }, { upstreamModel: 'claude-sonnet-4-5',
 *   defaultMaxTokens: 1024 });
 * // → { model: 'claude-sonnet-4-5', system: 'Be brief', messages: [{ role: 'user', content: 'Hi' }],
 * //     max_tokens: 1024, temperature: 1 }
 */
export function chatToAnthropicRequest(
  request: ChatRequest,
  target: TranslationTarget,
): MessagesRequest {
  const { system, messages } = anthropicTurns(request.messages);
  const out: MessagesRequest = {
    model: target.upstreamModel,
    max_tokens: request.max_completion_tokens ?? request.max_tokens ?? target.defaultMaxTokens,
    messages,
  };
  if (system.length > 0) out.system = system.join('\n\n');
  if (request.temperature != null) {
    out.temperature = Math.min(Math.max(request.temperature, 0), ANTHROPIC_MAX_TEMPERATURE);
  }
  if (request.top_p != null) out.top_p = request.top_p;
  const stop = stopList(request.stop);
  if (stop) out.stop_sequences = stop;
  if (request.stream) out.stream = true;
  if (typeof request.user === 'string') out.metadata = { user_id: request.user };
  if (request.tools && request.tools.length > 0) {
    out.tools = anthropicTools(request.tools);
    const choice = anthropicToolChoice(request.tool_choice, request.parallel_tool_calls);
    if (choice) out.tool_choice = choice;
  }
  const format = responseFormatPlan(request);
  if (format && 'tool' in format) {
    out.tools = [format.tool];
    out.tool_choice = { type: 'tool', name: format.tool.name };
  } else if (format) {
    system.push(format.instruction);
    out.system = system.join('\n\n');
  }
  return out;
}
