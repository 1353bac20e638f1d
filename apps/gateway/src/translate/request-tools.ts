/**
 * Tool definitions and tool choice, both ways: function tools ⇄ tools with `input_schema`, and
 * `tool_choice` with `parallel_tool_calls` ⇄ `tool_choice` with `disable_parallel_tool_use`.
 */
import type { ChatTool, ChatToolChoice, MessagesTool, MessagesToolChoice } from './wire.js';

/**
 * Chat function tools as Anthropic tools.
 *
 * @example
 * anthropicTools([{ type: 'function', function: { name: 'now' } }]);
 * // → [{ name: 'now', input_schema: { type: 'object', properties: {} } }]
 */
export function anthropicTools(tools: readonly ChatTool[]): MessagesTool[] {
  return tools.map(({ function: fn }) => {
    const tool: MessagesTool = {
      name: fn.name,
      // Anthropic requires a schema; a function without parameters takes none.
      input_schema: fn.parameters ?? { type: 'object', properties: {} },
    };
    if (fn.description !== undefined) tool.description = fn.description;
    return tool;
  });
}

/** Chat `tool_choice` and `parallel_tool_calls` as Anthropic's `tool_choice`, or undefined. */
export function anthropicToolChoice(
  choice: ChatToolChoice | undefined,
  parallel: boolean | null | undefined,
): MessagesToolChoice | undefined {
  const single = parallel === false ? { disable_parallel_tool_use: true } : {};
  if (choice === undefined) return parallel === false ? { type: 'auto', ...single } : undefined;
  if (choice === 'none') return { type: 'none' };
  if (choice === 'auto') return { type: 'auto', ...single };
  if (choice === 'required') return { type: 'any', ...single };
  return { type: 'tool', name: choice.function.name, ...single };
}

/** Anthropic tools as chat function tools. */
export function chatTools(tools: readonly MessagesTool[]): ChatTool[] {
  return tools.map((tool) => {
    const fn: ChatTool['function'] = { name: tool.name, parameters: tool.input_schema };
    if (tool.description !== undefined) fn.description = tool.description;
    return { type: 'function', function: fn };
  });
}

/** Anthropic's `tool_choice` as chat's (its `disable_parallel_tool_use` is the caller's to map). */
export function chatToolChoice(choice: MessagesToolChoice): ChatToolChoice {
  switch (choice.type) {
    case 'none':
      return 'none';
    case 'any':
      return 'required';
    case 'tool':
      return { type: 'function', function: { name: choice.name } };
    default:
      return 'auto';
  }
}
