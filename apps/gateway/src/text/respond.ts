/**
 * Stage 4a: a complete JSON answer. It is billed from the usage the upstream reported (or, when it
 * reported none, from a count of the text it returned), then sent: the upstream's own bytes when
 * the formats match, else the translated body.
 */
import { DROPPED_PARAMS_HEADER, droppedParamsValue } from '../translate/dropped.js';
import { plainUsage } from '../translate/usage.js';
import type { TextAnswer } from './answer.js';
import type { Charge } from './charge.js';
import { OVERHEAD_HEADER, type OverheadClock } from './overhead.js';
import type { UpstreamPlan } from './plan.js';
import { countTokens } from './tokens.js';
import type { UpstreamJson } from './upstream.js';

/**
 * @example
 * return respondJson(answer, charge, clock);
 */
export async function respondJson(
  answer: UpstreamJson,
  charge: Charge,
  clock: OverheadClock,
): Promise<TextAnswer> {
  const { body, usage } = answer.plan.respond(answer.json);
  charge.settle(usage ?? plainUsage(charge.estimatedInput, await countTokens(responseText(body))));
  return {
    kind: 'json',
    headers: {
      'content-type': 'application/json',
      [OVERHEAD_HEADER]: clock.header(),
      ...charge.tokens.headers,
      ...droppedHeader(answer.plan),
    },
    // The upstream's own bytes when the formats match: written to the socket as they came.
    body: answer.plan.passthrough ? answer.raw : Buffer.from(JSON.stringify(body)),
  };
}

/** `x-modelgate-dropped-params` when the translation left fields behind, else nothing. */
export function droppedHeader(plan: UpstreamPlan): Record<string, string> {
  return plan.dropped.length > 0
    ? { [DROPPED_PARAMS_HEADER]: droppedParamsValue(plan.dropped) }
    : {};
}

/** A response body in any client format, as far as its generated text goes. */
interface AnswerText {
  choices?: Array<{
    text?: string;
    message?: {
      content?: string | null;
      tool_calls?: Array<{ function?: { name?: string; arguments?: string } }>;
    };
  }>;
  content?: Array<{ type?: string; text?: string; name?: string; input?: unknown }>;
}

/**
 * The generated text of a non-streamed response in any client format, tool calls included (their
 * names and arguments are output tokens too). Used only when upstream reports no usage.
 */
function responseText(body: unknown): string {
  const answer: AnswerText = typeof body === 'object' && body !== null ? body : {};
  if (Array.isArray(answer.content)) {
    return answer.content
      .map((block) => {
        if (block.type === 'text') return block.text ?? '';
        if (block.type === 'tool_use')
          return `${block.name ?? ''}${JSON.stringify(block.input ?? {})}`;
        return '';
      })
      .join('');
  }
  return (answer.choices ?? [])
    .map((c) => {
      const calls = (c.message?.tool_calls ?? [])
        .map((call) => `${call.function?.name ?? ''}${call.function?.arguments ?? ''}`)
        .join('');
      return (c.message?.content ?? c.text ?? '') + calls;
    })
    .join('');
}
