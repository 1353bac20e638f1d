// What the `modelgate` binary does with its arguments; src/cli.ts only calls it.
import { createClient } from '@modelgate/core';
import { parseCliArgs, USAGE } from './args.js';
import { runBalanceCommand, runModelsCommand } from './commands/account.js';
import { runChatCommand } from './commands/chat.js';
import { type CommandIO, ExitCode } from './commands/io.js';
import { loadConfig } from './config.js';
import { VERSION } from './version.js';

/**
 * Runs the CLI and resolves with its exit code.
 *
 * @example
 * ```ts
 * process.exitCode = await main(process.argv.slice(2), process.env, process);
 * ```
 */
export async function main(
  argv: readonly string[],
  env: Record<string, string | undefined>,
  io: CommandIO,
): Promise<number> {
  const args = parseCliArgs(argv);
  if (!args.ok) {
    io.stderr.write(`modelgate: ${args.message}\n\n${USAGE}\n`);
    return ExitCode.usage;
  }
  const config = loadConfig(args.flags, env);
  const client = createClient({ baseUrl: config.baseUrl, apiKey: config.apiKey });
  const { command } = args;

  switch (command.name) {
    case 'help':
      io.stdout.write(`${USAGE}\n`);
      return ExitCode.ok;
    case 'version':
      io.stdout.write(`${VERSION}\n`);
      return ExitCode.ok;
    case 'models':
      return runModelsCommand({ client, json: args.json }, io);
    case 'balance':
      return runBalanceCommand({ client, json: args.json }, io);
    case 'chat':
      return runChatCommand({ client, model: config.model, prompt: command.prompt }, io);
    case 'interactive':
      // Without a terminal to draw in (piped stdin), behave like `modelgate chat -`.
      if (!io.stdin.isTTY || !io.stdout.isTTY) {
        return runChatCommand({ client, model: config.model, prompt: '-' }, io);
      }
      // Ink and React load only for the chat screen: one-shot commands start faster without them.
      return (await import('./interactive.js')).runInteractive(config, client, io.signal);
  }
}
