// The tool rules of a Messages request: `tools` and `tool_choice`, and how `tool_result` blocks
// pair with the assistant's `tool_use` blocks, checked as the real API checks them.
import { badRequest, isRecord } from '../errors.js';
import type { SimTool, SimToolChoice } from './tools.js';

/** `tools` and `tool_choice`, checked as the real API checks them. */
export function readTools(body: Record<string, unknown>): {
  tools: SimTool[];
  choice: SimToolChoice;
} {
  const tools = readToolList(body.tools);
  return { tools, choice: readToolChoice(body.tool_choice) };
}

function readToolList(raw: unknown): SimTool[] {
  const tools: SimTool[] = [];
  if (raw === undefined) return tools;
  if (!Array.isArray(raw)) throw badRequest('tools: Input should be a valid list');
  raw.forEach((tool, i) => {
    if (!isRecord(tool)) throw badRequest(`tools.${i}: Input should be a valid dictionary`);
    if (typeof tool.name !== 'string' || !/^[a-zA-Z0-9_-]{1,128}$/.test(tool.name)) {
      throw badRequest(
        `tools.${i}.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,128}$'`,
      );
    }
    if (!isRecord(tool.input_schema))
      throw badRequest(`tools.${i}.custom.input_schema: Field required`);
    tools.push({ name: tool.name, schema: tool.input_schema });
  });
  return tools;
}

function readToolChoice(choice: unknown): SimToolChoice {
  if (choice === undefined) return { mode: 'auto', parallel: true };
  if (!isRecord(choice)) throw badRequest('tool_choice: Input should be a valid dictionary');
  const parallel = choice.disable_parallel_tool_use !== true;
  switch (choice.type) {
    case 'auto':
      return { mode: 'auto', parallel };
    case 'any':
      return { mode: 'required', parallel };
    case 'none':
      return { mode: 'none', parallel };
    case 'tool':
      if (typeof choice.name !== 'string')
        throw badRequest('tool_choice.tool.name: Field required');
      return { mode: 'named', name: choice.name, parallel };
    default:
      throw badRequest(
        "tool_choice: Input tag does not match any of the expected tags: 'auto', 'any', 'tool', 'none'",
      );
  }
}

/**
 * The pairing rules of tool blocks: each tool_use in an assistant turn is answered by a
 * tool_result in the very next user turn, and those results come first in that turn.
 */
export function checkToolPairing(messages: Record<string, unknown>[]): void {
  for (let i = 0; i < messages.length; i++) {
    const previous = i > 0 ? messages[i - 1]!.content : undefined;
    const asked = new Set(
      (Array.isArray(previous) ? previous.filter(isRecord) : [])
        .filter((b) => b.type === 'tool_use')
        .map((b) => b.id),
    );
    const answered = checkResults(messages[i]!, i, asked);
    const missing = [...asked].filter((id) => !answered.has(id));
    if (missing.length > 0) {
      throw badRequest(
        `messages.${i}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing.join(', ')}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`,
      );
    }
  }
  checkNoTrailingToolUse(messages);
}

/** The tool_use ids message `i` answers; each result must answer one `asked` and come first. */
function checkResults(
  message: Record<string, unknown>,
  i: number,
  asked: Set<unknown>,
): Set<unknown> {
  const content = message.content;
  const blocks = Array.isArray(content) ? content.filter(isRecord) : [];
  let leading = true;
  const answered = new Set<unknown>();
  for (const block of blocks) {
    if (block.type !== 'tool_result') {
      leading = false;
      continue;
    }
    if (message.role !== 'user' || !asked.has(block.tool_use_id)) {
      throw badRequest(
        `messages.${i}.content: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${String(block.tool_use_id)}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`,
      );
    }
    if (!leading) {
      throw badRequest(
        `messages.${i}.content: tool_result blocks must come first in the user message content.`,
      );
    }
    answered.add(block.tool_use_id);
  }
  return answered;
}

function checkNoTrailingToolUse(messages: Record<string, unknown>[]): void {
  const last = messages[messages.length - 1]!;
  if (
    last.role === 'assistant' &&
    Array.isArray(last.content) &&
    last.content.some((b) => isRecord(b) && b.type === 'tool_use')
  ) {
    // A trailing tool_use with no result yet is only allowed as a prefill the model continues;
    // the simulator has nothing to continue it with.
    throw badRequest(
      `messages.${messages.length - 1}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after.`,
    );
  }
}
