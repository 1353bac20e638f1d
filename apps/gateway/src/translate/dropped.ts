/**
 * Which request fields a translation to the other format leaves behind. Text bodies are open
 * (spec: fields the schema does not name are kept): an upstream of the client's own format gets
 * them as sent, and a translation carries over only the fields it maps. Everything else that was
 * set is dropped, and the client is told so in `x-modelgate-dropped-params`.
 */

/**
 * The response header listing dropped fields (dotted paths, comma-separated). A field name is the
 * client's own text and may hold any character: each name is percent-encoded as a URI component
 * (`\u0100` → `%C4%80`, a comma → `%2C`), so the value is always a valid header and splits back
 * into names with `decodeURIComponent`.
 */
export const DROPPED_PARAMS_HEADER = 'x-modelgate-dropped-params';

/**
 * @example
 * droppedParamsValue(['seed', 'tools.*.strict', '\u0100']); // 'seed,tools.*.strict,%C4%80'
 */
export function droppedParamsValue(fields: readonly string[]): string {
  return fields.map(encodeName).join(',');
}

/** A lone UTF-16 surrogate (which encodeURIComponent refuses) becomes U+FFFD. */
function encodeName(name: string): string {
  return encodeURIComponent(name.replace(LONE_SURROGATE, '\uFFFD'));
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** What one translation direction carries over, at the top level and inside each tool. */
export interface CarriedFields {
  body: ReadonlySet<string>;
  /** Fields of each `tools[]` entry, dotted (`function.name`); absent: tools are not carried. */
  tool?: ReadonlySet<string>;
}

/** Chat completions → messages (see translate/chat-to-anthropic-request.ts for how each one maps). */
export const CHAT_TO_MESSAGES: CarriedFields = {
  body: new Set([
    'model',
    'messages',
    'max_tokens',
    'max_completion_tokens',
    'temperature',
    'top_p',
    'stop',
    'stream',
    'stream_options',
    'user',
    'tools',
    'tool_choice',
    'parallel_tool_calls',
    'response_format',
    // As thinking (translate/reasoning.ts lists it when thinking cannot be on).
    'reasoning_effort',
    // Only 1 is accepted, which is what the messages format always does.
    'n',
  ]),
  tool: new Set([
    'type',
    'function',
    'function.name',
    'function.description',
    'function.parameters',
  ]),
};

/** Legacy completions → messages (the prompt becomes one user turn). */
export const COMPLETION_TO_MESSAGES: CarriedFields = {
  body: new Set([
    'model',
    'prompt',
    'max_tokens',
    'temperature',
    'top_p',
    'stop',
    'stream',
    'stream_options',
    'user',
    'n',
  ]),
};

/** Messages → chat completions. */
export const MESSAGES_TO_CHAT: CarriedFields = {
  body: new Set([
    'model',
    'messages',
    'max_tokens',
    'system',
    'temperature',
    'top_p',
    'stop_sequences',
    'stream',
    'metadata',
    'tools',
    'tool_choice',
    // As reasoning_effort; what does not map is listed by translate/reasoning.ts.
    'thinking',
    'output_config',
  ]),
  tool: new Set(['name', 'description', 'input_schema', 'type']),
};

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The set fields of one object (null means "not set"), one level of `nested` keys expanded. */
function setFields(object: Record<string, unknown>, nested: readonly string[]): string[] {
  const out: string[] = [];
  for (const [key, value] of Object.entries(object)) {
    if (value === null || value === undefined) continue;
    if (nested.includes(key) && isRecord(value)) {
      out.push(key);
      for (const [inner, v] of Object.entries(value)) {
        if (v !== null && v !== undefined) out.push(`${key}.${inner}`);
      }
    } else out.push(key);
  }
  return out;
}

/**
 * The fields of `body` a translation with `carried` drops: set top-level fields it does not map,
 * and fields of any tool (`tools.*.strict`), each named once.
 *
 * @example
 * droppedFields({ model: 'm', messages: [], seed: 7, logprobs: true }, CHAT_TO_MESSAGES);
 * // → ['seed', 'logprobs']
 */
export function droppedFields(body: Record<string, unknown>, carried: CarriedFields): string[] {
  const dropped = setFields(body, []).filter((key) => !carried.body.has(key));
  const toolFields = carried.tool;
  if (toolFields && Array.isArray(body.tools)) {
    const seen = new Set<string>();
    for (const tool of body.tools) {
      if (!isRecord(tool)) continue;
      for (const field of setFields(tool, ['function'])) {
        if (!toolFields.has(field)) seen.add(`tools.*.${field}`);
      }
    }
    dropped.push(...seen);
  }
  return dropped;
}
