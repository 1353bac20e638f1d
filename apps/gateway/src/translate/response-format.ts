/**
 * A chat request's `response_format` for an upstream of the messages format, which has no such
 * field. The reliable way to get JSON of a given shape from it is a forced tool: a tool whose input
 * schema is the wanted schema, with `tool_choice` naming it; the tool's input is then the answer,
 * and the gateway hands it back as the message's text so the client sees what an OpenAI model
 * would have said. When the request has tools of its own (forcing one would stop the model from
 * calling them) or the schema is not an object schema (tool inputs are objects), the format
 * becomes an instruction in the system prompt instead.
 */
import type {
  AnthropicBlock,
  AnthropicMessage,
  AnthropicStreamEvent,
  ChatRequest,
  MessagesTool,
} from './wire.js';

/** How a response_format is asked for: a forced tool, or words in the system prompt. */
export type ResponseFormatPlan = { tool: MessagesTool } | { instruction: string };

/** The forced tool's name for `json_object` (any object). */
const JSON_OBJECT_TOOL = 'json_object';

const isObjectSchema = (schema: Record<string, unknown>) =>
  schema.type === 'object' || (schema.type === undefined && 'properties' in schema);

/**
 * @returns null for `text` or no format.
 *
 * @example
 * responseFormatPlan({ model: 'm', messages: [], response_format: { type: 'json_schema',
 *   json_schema: { name: 'city', schema: { type: 'object' } } } });
 * // → { tool: { name: 'city', description: …, input_schema: { type: 'object' } } }
 */
export function responseFormatPlan(request: ChatRequest): ResponseFormatPlan | null {
  const format = request.response_format;
  if (!format || format.type === 'text') return null;
  const hasTools = (request.tools?.length ?? 0) > 0;
  if (format.type === 'json_object') {
    if (hasTools) return { instruction: 'Answer with one JSON object and nothing else.' };
    return {
      tool: {
        name: JSON_OBJECT_TOOL,
        description: 'Give your answer as this tool input: a JSON object.',
        input_schema: { type: 'object' },
      },
    };
  }
  const { name, description, schema = { type: 'object' } } = format.json_schema;
  if (hasTools || !isObjectSchema(schema)) {
    return {
      instruction: `Answer with JSON only, matching this JSON Schema: ${JSON.stringify(schema)}`,
    };
  }
  return {
    tool: {
      name,
      description: description ?? 'Give your answer as this tool input.',
      input_schema: schema,
    },
  };
}

/**
 * A response's answer tool (`tool_use` named `tool`) as a text block of its JSON input, and its
 * `tool_use` stop reason as an ordinary end of turn.
 *
 * @example
 * answerToolAsText(message, 'city').content; // [{ type: 'text', text: '{"city":"Paris"}' }]
 */
export function answerToolAsText(message: AnthropicMessage, tool: string): AnthropicMessage {
  let answered = false;
  const content = message.content.map((block): AnthropicBlock => {
    if (block.type !== 'tool_use' || block.name !== tool) return block;
    answered = true;
    return { type: 'text', text: JSON.stringify(block.input ?? {}) };
  });
  if (!answered) return message;
  const stopReason = message.stop_reason === 'tool_use' ? 'end_turn' : message.stop_reason;
  return { ...message, content, stop_reason: stopReason };
}

/**
 * The same for a stream, one event at a time: the answer tool's block opens as a text block and
 * its `input_json_delta`s arrive as `text_delta`s.
 *
 * @example
 * const rewrite = new AnswerToolStream('city');
 * translator.push(rewrite.event(upstreamEvent));
 */
export class AnswerToolStream {
  private readonly blocks = new Set<number>();

  constructor(private readonly tool: string) {}

  event(event: AnthropicStreamEvent): AnthropicStreamEvent {
    switch (event.type) {
      case 'content_block_start': {
        const block = event.content_block;
        if (block.type !== 'tool_use' || block.name !== this.tool) return event;
        this.blocks.add(event.index);
        return { ...event, content_block: { type: 'text', text: '' } };
      }
      case 'content_block_delta': {
        if (!this.blocks.has(event.index) || event.delta.type !== 'input_json_delta') return event;
        return { ...event, delta: { type: 'text_delta', text: event.delta.partial_json ?? '' } };
      }
      case 'message_delta': {
        if (this.blocks.size === 0 || event.delta.stop_reason !== 'tool_use') return event;
        return { ...event, delta: { ...event.delta, stop_reason: 'end_turn' } };
      }
      default:
        return event;
    }
  }
}
