// What a line typed in the chat screen means: a prompt, or one of the slash commands.

/** A parsed line of the prompt input. */
export type InputAction =
  | { kind: 'prompt'; text: string }
  | { kind: 'help' }
  | { kind: 'exit' }
  | { kind: 'clear' }
  | { kind: 'models' }
  | { kind: 'balance' }
  | { kind: 'model' /** `undefined`: open the model picker. */; id: string | undefined }
  | { kind: 'attach' /** `undefined`: list what is attached. */; path: string | undefined }
  | { kind: 'detach' }
  | { kind: 'video'; model: string; prompt: string }
  | { kind: 'image'; prompt: string }
  | { kind: 'invalid'; message: string };

/** The `/help` text, one command a line. */
export const SLASH_HELP: readonly string[] = [
  '/model [id]             switch the chat model (/model alone opens a picker: ↑/↓, Enter)',
  '/models                 list the models behind the gateway',
  '/balance                show the remaining credits',
  '/video <model> <prompt> generate a video and follow it to its URL',
  '/image <prompt>         generate an image (first image model), print its URL',
  '/attach <image path>    upload an image and send it with the next prompt',
  '/detach                 drop the images attached so far',
  '/clear                  start a new conversation',
  '/help                   this list',
  '/exit                   quit (also Ctrl+C twice, or Ctrl+D)',
  'Esc or Ctrl+C stops an answer while it streams.',
];

/**
 * @example
 * ```ts
 * parseInputLine('/model gpt-4o'); // → { kind: 'model', id: 'gpt-4o' }
 * parseInputLine('hello');         // → { kind: 'prompt', text: 'hello' }
 * ```
 */
export function parseInputLine(line: string): InputAction | undefined {
  const text = line.trim();
  if (text === '') return undefined;
  if (!text.startsWith('/')) return { kind: 'prompt', text };

  const [command = '', ...words] = text.slice(1).split(/\s+/);
  switch (command.toLowerCase()) {
    case 'help':
    case '?':
      return { kind: 'help' };
    case 'exit':
    case 'quit':
      return { kind: 'exit' };
    case 'clear':
      return { kind: 'clear' };
    case 'models':
      return { kind: 'models' };
    case 'balance':
      return { kind: 'balance' };
    case 'model':
      return { kind: 'model', id: words[0] };
    case 'attach':
      // The rest of the line, so a path with spaces needs no quotes.
      return {
        kind: 'attach',
        path: words.length > 0 ? text.slice(1 + command.length).trim() : undefined,
      };
    case 'detach':
      return { kind: 'detach' };
    case 'video': {
      const [model, ...prompt] = words;
      if (!model || prompt.length === 0) {
        return { kind: 'invalid', message: 'usage: /video <model> <prompt>' };
      }
      return { kind: 'video', model, prompt: prompt.join(' ') };
    }
    case 'image': {
      // The rest of the line as typed, like /attach's path.
      const prompt = text.slice(1 + command.length).trim();
      return prompt === ''
        ? { kind: 'invalid', message: 'usage: /image <prompt>' }
        : { kind: 'image', prompt };
    }
    default:
      return { kind: 'invalid', message: `unknown command /${command} (try /help)` };
  }
}
