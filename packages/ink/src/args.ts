// Command-line parsing with node:util's parseArgs: no dependency, strict about unknown flags.
import { parseArgs } from 'node:util';
import type { ConfigFlags } from './config.js';

/** What the user asked the CLI to do. */
export type Command =
  | { name: 'interactive' }
  | { name: 'chat' /** The prompt, or `-` to read it from stdin. */; prompt: string | undefined }
  | { name: 'models' }
  | { name: 'balance' }
  | { name: 'help' }
  | { name: 'version' };

/** A successful parse: the command plus the flags that configure it. */
export interface ParsedArgs {
  ok: true;
  command: Command;
  flags: ConfigFlags;
  /** `--json`: machine-readable output for `models` and `balance`. */
  json: boolean;
}

/** A parse failure, printed with the usage text and exit code 2. */
export interface UsageError {
  ok: false;
  message: string;
}

export const USAGE = `Usage: modelgate [command] [options]

Commands:
  (none)              interactive chat screen
  chat <prompt|->     stream one answer to stdout ("-" reads the prompt from stdin)
  models              list the models behind the gateway
  balance             show the key's remaining credits

Options:
  --base-url <url>    gateway address (env MODELGATE_BASE_URL, default http://localhost:8080)
  --api-key <key>     API key (env MODELGATE_API_KEY)
  -m, --model <id>    chat model (env MODELGATE_MODEL, default gpt-4o-mini)
  --json              models/balance: print JSON
  -h, --help          show this help
  -v, --version       print the version

In the chat screen: /help lists the slash commands; Esc or Ctrl+C stops an answer,
Ctrl+C twice exits.`;

const COMMANDS = new Set(['chat', 'models', 'balance', 'help']);

/**
 * Parses `process.argv.slice(2)`.
 *
 * @example
 * ```ts
 * parseCliArgs(['chat', 'Say hi', '--model', 'gpt-4o']);
 * // → { ok: true, command: { name: 'chat', prompt: 'Say hi' }, flags: { model: 'gpt-4o', … }, json: false }
 * ```
 */
export function parseCliArgs(argv: readonly string[]): ParsedArgs | UsageError {
  let parsed: ReturnType<typeof parseWithNode>;
  try {
    parsed = parseWithNode(argv);
  } catch (err) {
    return { ok: false, message: err instanceof Error ? err.message : String(err) };
  }
  const { values, positionals } = parsed;
  const flags: ConfigFlags = {
    baseUrl: values['base-url'],
    apiKey: values['api-key'],
    model: values.model,
  };
  const json = values.json ?? false;
  const result = (command: Command): ParsedArgs => ({ ok: true, command, flags, json });

  if (values.help) return result({ name: 'help' });
  if (values.version) return result({ name: 'version' });

  const [name, ...rest] = positionals;
  if (name === undefined) return result({ name: 'interactive' });
  if (!COMMANDS.has(name)) return { ok: false, message: `Unknown command "${name}"` };
  if (name === 'chat') {
    // Unquoted words are joined, so `modelgate chat say hi` works like `modelgate chat "say hi"`.
    return result({ name: 'chat', prompt: rest.length > 0 ? rest.join(' ') : undefined });
  }
  if (rest.length > 0) return { ok: false, message: `"${name}" takes no arguments` };
  return result({ name } as Command);
}

function parseWithNode(argv: readonly string[]) {
  return parseArgs({
    args: [...argv],
    allowPositionals: true,
    strict: true,
    options: {
      'base-url': { type: 'string' },
      'api-key': { type: 'string' },
      model: { type: 'string', short: 'm' },
      json: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
      version: { type: 'boolean', short: 'v' },
    },
  });
}
