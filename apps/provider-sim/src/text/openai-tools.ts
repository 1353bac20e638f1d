// The tool rules of a chat request: `tools`, `tool_choice` and `parallel_tool_calls`, and how tool
// messages pair with the assistant's `tool_calls`, checked as the real API checks them.
import { badRequest, isRecord } from '../errors.js';
import { booleanField } from './openai-request.js';
import type { SimTool, SimToolChoice } from './tools.js';

/** `tools`, `tool_choice` and `parallel_tool_calls`, checked as the real API checks them. */
export function readTools(body: Record<string, unknown>): {
  tools: SimTool[];
  choice: SimToolChoice;
} {
  const tools = readToolList(body.tools);
  const parallel = booleanField(body, 'parallel_tool_calls') ?? true;
  return { tools, choice: readToolChoice(body.tool_choice, tools, parallel) };
}

function readToolList(raw: unknown): SimTool[] {
  const tools: SimTool[] = [];
  if (raw === undefined || raw === null) return tools;
  if (!Array.isArray(raw))
    throw badRequest("Invalid type for 'tools': expected an array.", 'tools', 'invalid_type');
  raw.forEach((tool, i) => {
    const fn = isRecord(tool) ? tool.function : undefined;
    if (!isRecord(tool) || tool.type !== 'function' || !isRecord(fn)) {
      throw badRequest(
        `Invalid value for 'tools[${i}]': expected a function tool.`,
        `tools[${i}]`,
        'invalid_value',
      );
    }
    if (typeof fn.name !== 'string' || fn.name === '') {
      throw badRequest(
        `Missing required parameter: 'tools[${i}].function.name'.`,
        `tools[${i}].function.name`,
        'missing_required_parameter',
      );
    }
    tools.push({ name: fn.name, schema: fn.parameters });
  });
  return tools;
}

function readToolChoice(choice: unknown, tools: SimTool[], parallel: boolean): SimToolChoice {
  if (choice === undefined || choice === null) return { mode: 'auto', parallel };
  if (tools.length === 0) {
    throw badRequest(
      "Invalid value for 'tool_choice': 'tool_choice' is only allowed when 'tools' are specified.",
      'tool_choice',
    );
  }
  if (choice === 'none' || choice === 'auto' || choice === 'required')
    return { mode: choice, parallel };
  if (isRecord(choice) && isRecord(choice.function) && typeof choice.function.name === 'string')
    return { mode: 'named', name: choice.function.name, parallel };
  throw badRequest(
    "Invalid value for 'tool_choice': expected 'none', 'auto', 'required' or a named function.",
    'tool_choice',
    'invalid_value',
  );
}

/**
 * The pairing rules of tool messages: an assistant message with tool_calls is followed by one
 * tool message per call id, and a tool message answers a call of the assistant message before it.
 */
export function checkToolPairing(messages: Record<string, unknown>[]): void {
  let pending: string[] = [];
  let pendingAt = -1;
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i]!;
    if (message.role === 'tool') {
      pending = answerCall(message, i, pending);
      continue;
    }
    if (pending.length > 0) break;
    const calls = message.role === 'assistant' ? message.tool_calls : undefined;
    if (Array.isArray(calls) && calls.length > 0) {
      pendingAt = i;
      pending = callIds(calls, i);
    }
  }
  if (pending.length > 0) {
    throw badRequest(
      `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${pending.join(', ')}`,
      `messages.[${pendingAt}].role`,
    );
  }
}

/** The call ids still pending once tool message `i` has answered one of them. */
function answerCall(message: Record<string, unknown>, i: number, pending: string[]): string[] {
  const id = message.tool_call_id;
  if (typeof id !== 'string' || id === '') {
    throw badRequest(
      `Missing required parameter: 'messages[${i}].tool_call_id'.`,
      `messages[${i}].tool_call_id`,
      'missing_required_parameter',
    );
  }
  if (!pending.includes(id)) {
    throw badRequest(
      "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.",
      `messages[${i}].role`,
    );
  }
  return pending.filter((p) => p !== id);
}

/** The ids of the `tool_calls` of assistant message `i`, each call checked. */
function callIds(calls: unknown[], i: number): string[] {
  const ids: string[] = [];
  for (let j = 0; j < calls.length; j++) {
    const call = calls[j];
    if (!isRecord(call) || typeof call.id !== 'string' || !isRecord(call.function)) {
      throw badRequest(
        `Invalid 'messages[${i}].tool_calls[${j}]': expected an object with id, type and function.`,
        `messages[${i}].tool_calls[${j}]`,
        'invalid_type',
      );
    }
    ids.push(call.id);
  }
  return ids;
}
