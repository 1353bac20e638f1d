// Deterministic tool calling, shared by both wire protocols (docs/providers.md §1 tools/tool_calls,
// §2 tools/tool_use). The "model" calls every offered tool whose name appears in the last user
// text (the first offered tool when none does), only the first of them when parallel calls are
// off, and the named tool when tool_choice names one. Arguments are built from the tool's JSON
// schema: every required property gets a value of its type, so clients can parse and use them.

import { isRecord } from '../errors.js';
import { hashString, outputPieces } from './generate.js';

/** A tool as either protocol declares it, reduced to what the simulator uses. */
export interface SimTool {
  name: string;
  schema: unknown;
}

/** What the request allows: `none` answers with text, `named` must call that tool. */
export type SimToolChoice =
  | { mode: 'auto' | 'required' | 'none'; parallel: boolean }
  | { mode: 'named'; name: string; parallel: boolean };

export interface SimToolCall {
  name: string;
  /** The arguments as JSON text (OpenAI `function.arguments`, Anthropic `input` serialized). */
  json: string;
  input: Record<string, unknown>;
}

/** A value for one schema: enum/const/default first, then by type; objects recurse on `required`. */
function valueFor(schema: unknown, seed: number, depth: number): unknown {
  if (!isRecord(schema)) return 'value';
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  if ('const' in schema) return schema.const;
  if ('default' in schema) return schema.default;
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'integer':
    case 'number':
      return typeof schema.minimum === 'number' ? schema.minimum : 1 + (seed % 9);
    case 'boolean':
      return true;
    case 'array': {
      // As many items as the schema asks for at least (one when it does not say).
      const min = typeof schema.minItems === 'number' ? schema.minItems : 1;
      if (depth > 4) return [];
      return Array.from({ length: Math.min(min, 3) }, (_, i) =>
        valueFor(schema.items, hashString(`${seed}:${i}`), depth + 1),
      );
    }
    case 'null':
      return null;
    case 'object':
      return depth > 4 ? {} : argumentsFor(schema, seed, depth + 1);
    default: {
      const word = outputPieces(seed, 1)[0]!.trim().toLowerCase();
      const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
      return word.padEnd(min, word);
    }
  }
}

/**
 * The arguments of a call: a value for every required property of an object schema.
 *
 * @example
 * argumentsFor({ type: 'object', properties: { n: { type: 'integer', minimum: 2 } }, required: ['n'] }, 7);
 * // → { n: 2 }
 */
export function argumentsFor(schema: unknown, seed: number, depth = 0): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (!isRecord(schema)) return out;
  const properties = isRecord(schema.properties) ? schema.properties : {};
  const required = Array.isArray(schema.required) ? schema.required : [];
  for (const name of required) {
    if (typeof name !== 'string') continue;
    out[name] = valueFor(properties[name], hashString(`${seed}:${name}`), depth);
  }
  return out;
}

/**
 * The user's own words: agent CLIs append `<system-reminder>` blocks to the user turn that name
 * every tool they have (Claude Code's list Agent, Bash, Skill…), which the user did not ask for.
 */
function usersOwnText(text: string): string {
  return text.replace(/<system-reminder>[\s\S]*?<\/system-reminder>/g, '');
}

/**
 * The calls the simulated model makes, or null when it answers with text (no tools, choice
 * `none`, or the conversation ends with a tool result: the model then reads it and replies).
 */
export function planToolCalls(
  tools: readonly SimTool[],
  choice: SimToolChoice,
  lastUserText: string,
  endsWithToolResult: boolean,
): SimToolCall[] | null {
  if (tools.length === 0 || choice.mode === 'none' || endsWithToolResult) return null;
  let chosen: SimTool[];
  if (choice.mode === 'named') {
    const named = tools.find((tool) => tool.name === choice.name);
    chosen = named ? [named] : [];
  } else {
    const asked = usersOwnText(lastUserText);
    const mentioned = tools.filter((tool) => asked.includes(tool.name));
    chosen = mentioned.length > 0 ? mentioned : [tools[0]!];
  }
  if (!choice.parallel) chosen = chosen.slice(0, 1);
  return chosen.map((tool) => {
    const input = argumentsFor(tool.schema, hashString(`${lastUserText}|${tool.name}`));
    return { name: tool.name, json: JSON.stringify(input), input };
  });
}

/** Splits JSON text into the small pieces a real model streams (a few characters each). */
export function jsonPieces(json: string, size = 6): string[] {
  const pieces: string[] = [];
  for (let i = 0; i < json.length; i += size) pieces.push(json.slice(i, i + size));
  return pieces;
}

/**
 * The answer to a system prompt that asks for JSON (the word `JSON`), as a model following it would
 * give, or null: a value of the JSON Schema quoted after `JSON Schema:` at the prompt's end, else an
 * object holding the generated text. Messages-format requests have no `response_format`; this is
 * how they ask.
 *
 * @example
 * jsonAnswerForSystem('Answer with JSON only, matching this JSON Schema: {"type":"object"}', 'Hi', 'Hello'); // '{}'
 */
export function jsonAnswerForSystem(system: string, key: string, text: string): string | null {
  if (!/\bJSON\b/.test(system)) return null;
  const at = system.lastIndexOf('JSON Schema:');
  if (at !== -1) {
    try {
      const schema: unknown = JSON.parse(system.slice(at + 'JSON Schema:'.length));
      return JSON.stringify(valueFor(schema, hashString(key), 0));
    } catch {
      // Not a schema after all: answer with an object.
    }
  }
  return JSON.stringify({ answer: text });
}

/**
 * The answer to a chat request's `response_format` (as OpenAI's Chat Completions API takes it), or null for plain text:
 * `json_object` → an object holding the generated text; `json_schema` → a value of the schema,
 * built as tool arguments are (every required property, enums, types).
 *
 * @example
 * jsonAnswer({ type: 'json_schema', json_schema: { name: 'x', schema: { type: 'object',
 *   properties: { ok: { type: 'boolean' } }, required: ['ok'] } } }, 'Hi', 'Hello'); // '{"ok":true}'
 */
export function jsonAnswer(format: unknown, key: string, text: string): string | null {
  if (!isRecord(format)) return null;
  if (format.type === 'json_object') return JSON.stringify({ answer: text });
  if (format.type !== 'json_schema' || !isRecord(format.json_schema)) return null;
  const schema = format.json_schema.schema ?? { type: 'object' };
  return JSON.stringify(valueFor(schema, hashString(key), 0));
}
