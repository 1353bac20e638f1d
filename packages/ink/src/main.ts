// What the `modelgate` binary does with its arguments; src/cli.ts only calls it.
import { createClient } from '@modelgate/core';
import { type Command, type ParsedArgs, parseCliArgs, USAGE } from './args.js';
import { runBalanceCommand, runBudgetCommand, runModelsCommand } from './commands/account.js';
import { runAuditCommand } from './commands/audit.js';
import { runChatCommand } from './commands/chat.js';
import {
  type ConfigCommandInput,
  runConfigGet,
  runConfigList,
  runConfigSet,
  runConfigUse,
} from './commands/config.js';
import { runEmbedCommand } from './commands/embed.js';
import { runImageCommand } from './commands/image.js';
import { type CommandIO, ExitCode } from './commands/io.js';
import { runKeysCommand } from './commands/keys.js';
import { runTeamsCommand } from './commands/teams.js';
import { runTokenCreateCommand } from './commands/token.js';
import { runUploadCommand } from './commands/upload.js';
import { runUsageCommand } from './commands/usage.js';
import {
  runVideoCancelCommand,
  runVideoCommand,
  runVideoListCommand,
  runVideoStatusCommand,
} from './commands/video.js';
import { type CliConfig, loadConfig, selectProfile } from './config.js';
import { type ConfigFile, configFilePath, readConfigFile } from './config-file.js';
import { VERSION } from './version.js';

type Env = Record<string, string | undefined>;

/**
 * Runs the CLI and resolves with its exit code.
 *
 * @example
 * ```ts
 * process.exitCode = await main(process.argv.slice(2), process.env, process);
 * ```
 */
export async function main(argv: readonly string[], env: Env, io: CommandIO): Promise<number> {
  const args = parseCliArgs(argv);
  if (!args.ok) {
    io.stderr.write(`modelgate: ${args.message}\n\n${USAGE}\n`);
    return ExitCode.usage;
  }
  const path = configFilePath(env);
  let file: ConfigFile;
  try {
    file = readConfigFile(path);
  } catch (error) {
    io.stderr.write(`modelgate: ${error instanceof Error ? error.message : String(error)}\n`);
    return ExitCode.config;
  }
  const configInput: ConfigCommandInput = { path, file, flags: args.flags, env };
  const { command } = args;
  try {
    if (command.name === 'config-set') {
      return runConfigSet(configInput, command.key, command.value, io);
    }
    if (command.name === 'config-use') return runConfigUse(configInput, command.profile, io);
  } catch (error) {
    // The file could not be written (permissions, a full disk): say so, no stack trace.
    io.stderr.write(`modelgate: ${error instanceof Error ? error.message : String(error)}\n`);
    return ExitCode.config;
  }
  if (command.name === 'config-list') return runConfigList(configInput, io);

  const selected = selectProfile(args.flags, env, file);
  if (!selected.ok) {
    io.stderr.write(`modelgate: ${selected.message}\n`);
    return ExitCode.usage;
  }
  const config = loadConfig(args.flags, env, selected.profile);
  if (command.name === 'config-get') return runConfigGet(config, command.key, io);
  return run(command, args, config, io);
}

/** Every command but the config file's own, which need no client. */
type GatewayCommand = Exclude<Command, { name: `config-${string}` }>;

async function run(command: GatewayCommand, args: ParsedArgs, config: CliConfig, io: CommandIO) {
  const client = createClient({ baseUrl: config.baseUrl, apiKey: config.apiKey });
  const { json } = args;
  switch (command.name) {
    case 'help':
      io.stdout.write(`${USAGE}\n`);
      return ExitCode.ok;
    case 'version':
      io.stdout.write(`${VERSION}\n`);
      return ExitCode.ok;
    case 'models':
      return runModelsCommand({ client, json }, io);
    case 'balance':
      return runBalanceCommand({ client, json }, io);
    case 'budget':
      return runBudgetCommand({ client, json }, io);
    case 'chat':
      return runChatCommand(
        { client, model: config.model, prompt: command.prompt, json, api: command.api },
        io,
      );
    case 'video':
      return runVideoCommand({ client, json, ...command }, io);
    case 'video-status':
      return runVideoStatusCommand({ client, json, taskId: command.taskId }, io);
    case 'video-cancel':
      return runVideoCancelCommand({ client, json, taskId: command.taskId }, io);
    case 'video-list':
      return runVideoListCommand({ client, json, limit: command.limit }, io);
    case 'upload':
      return runUploadCommand({ client, json, file: command.file }, io);
    case 'image': {
      // `name` is the command's, not a field of the request body.
      const { name, ...request } = command;
      return runImageCommand({ client, json, ...request }, io);
    }
    case 'embed':
      return runEmbedCommand({ client, json, text: command.text, model: command.model }, io);
    case 'token-create': {
      if (config.adminKey === undefined) return adminKeyNeeded('token create', config, io);
      const { tokenName: name, quota } = command;
      return runTokenCreateCommand({ adminClient: adminClient(config), name, quota, json }, io);
    }
    case 'keys-list':
    case 'keys-show':
    case 'keys-set':
    case 'keys-revoke':
      if (config.adminKey === undefined) {
        return adminKeyNeeded(command.name.replace('-', ' '), config, io);
      }
      return runKeysCommand(command, { adminClient: adminClient(config), json }, io);
    case 'teams-list':
    case 'teams-show':
    case 'teams-create':
    case 'teams-set':
    case 'teams-delete':
      if (config.adminKey === undefined) {
        return adminKeyNeeded(command.name.replace('-', ' '), config, io);
      }
      return runTeamsCommand(command, { adminClient: adminClient(config), json }, io);
    case 'audit':
      return runAuditCommand(command, { adminClient: adminClient(config), json }, io);
    case 'usage': {
      // Every key's usage when the admin key is at hand, else the key's own.
      const apiKey = config.adminKey ?? config.apiKey;
      const usageClient = createClient({ baseUrl: config.baseUrl, apiKey });
      return runUsageCommand({ client: usageClient, json, ...command }, io);
    }
    case 'interactive':
      // Without a terminal to draw in (piped stdin), behave like `modelgate chat -`.
      if (!io.stdin.isTTY || !io.stdout.isTTY) {
        return runChatCommand(
          { client, model: config.model, prompt: '-', json, api: command.api },
          io,
        );
      }
      // Ink and React load only for the chat screen: one-shot commands start faster without them.
      return (await import('./interactive.js')).runInteractive(
        config,
        client,
        io.signal,
        command.api,
      );
  }
}

/**
 * An administrator's command run without an admin key: says which key it needs and the three ways
 * to give one, instead of sending no key and printing the gateway's "Missing API key" while an
 * API key is set (that one is the user's own, never sent to the admin routes).
 */
function adminKeyNeeded(what: string, config: CliConfig, io: CommandIO): number {
  const apiKeyNote =
    config.apiKey === undefined ? '' : ' (MODELGATE_API_KEY is a user key, not used for it)';
  io.stderr.write(
    `modelgate: ${what} needs an admin key${apiKeyNote}: set MODELGATE_ADMIN_KEY ` +
      '(a fresh gateway writes its own to .modelgate/admin-key), pass --admin-key <key>, ' +
      'or run modelgate config set adminKey <key>\n',
  );
  return ExitCode.usage;
}

/** A client that sends the admin key, for the commands only an administrator may run. */
function adminClient(config: CliConfig) {
  return createClient({ baseUrl: config.baseUrl, apiKey: config.adminKey });
}
