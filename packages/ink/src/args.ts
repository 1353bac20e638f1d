// Command-line parsing with node:util's parseArgs: no dependency, strict about unknown flags.

import { type AuditCommand, auditCommand } from './audit-args.js';
import { type OptionValues, parseWithNode } from './cli-options.js';
import type { ConfigFlags } from './config.js';
import { isProfileKey, PROFILE_KEYS, type ProfileKey } from './config-file.js';
import { type EmbedCommand, embedCommand } from './embed-args.js';
import { type ImageCommand, imageCommand } from './image-args.js';
import { type KeysCommand, keysCommand } from './keys-args.js';
import { creditsToUnits, positiveNumber } from './numbers.js';
import { type TeamsCommand, teamsCommand } from './teams-args.js';
import { type UsageCommand, usageCommand } from './usage-args.js';

/** The API a chat turn goes to (`--api`): `/v1/chat/completions`, `/v1/messages` or `/v1/responses`. */
export type ChatApi = 'chat' | 'messages' | 'responses';

const CHAT_APIS: readonly ChatApi[] = ['chat', 'messages', 'responses'];

/** What the user asked the CLI to do. */
export type Command =
  | { name: 'interactive'; api: ChatApi }
  | {
      name: 'chat';
      /** The prompt, or `-` to read it from stdin. */
      prompt: string | undefined;
      api: ChatApi;
    }
  | { name: 'models' }
  | { name: 'balance' }
  | { name: 'budget' }
  | {
      name: 'video';
      prompt: string;
      model: string;
      image?: string;
      duration?: number;
      wait: boolean;
    }
  | { name: 'video-status'; taskId: string }
  | { name: 'video-list'; limit?: number }
  | { name: 'video-cancel'; taskId: string }
  | { name: 'upload'; file: string }
  | ImageCommand
  | EmbedCommand
  | { name: 'token-create'; tokenName: string /** Quota in units. */; quota: number }
  | KeysCommand
  | TeamsCommand
  | AuditCommand
  | UsageCommand
  | { name: 'config-set'; key: ProfileKey; value: string }
  | { name: 'config-get'; key: ProfileKey }
  | { name: 'config-use'; profile: string }
  | { name: 'config-list' }
  | { name: 'help' }
  | { name: 'version' };

/** A successful parse: the command plus the flags that configure it. */
export interface ParsedArgs {
  ok: true;
  command: Command;
  flags: ConfigFlags;
  /** `--json`: machine-readable output. */
  json: boolean;
}

/** A parse failure, printed with the usage text and exit code 2. */
export interface UsageError {
  ok: false;
  message: string;
}

export const USAGE = `Usage: modelgate [command] [options]

Commands:
  (none)                        interactive chat screen
  chat <prompt|->               stream one answer ("-" reads stdin; --json: one JSON document)
        [--api chat|messages|responses]
                                the API the answer comes from (default chat: /v1/chat/completions;
                                responses: /v1/responses, the Responses API); also for the screen
  models                        list the models behind the gateway
  balance                       show the key's remaining credits, and its budgets
  budget                        the key's budget and its team's: spent this period, when it resets
  video <prompt> --model <id>   submit a video task, print its id (--wait: follow it, print the URL)
        [--image FILE|URL] [--duration S] [--wait]
  video status <task_id>        one task's status (and its URL once completed)
  video list [--limit N]        the key's tasks, newest first
  video cancel <task_id>        cancel a task
  upload <file>                 upload an image, print its URL
  image <prompt> [--model M] [--size S] [--quality Q] [--n N] [--out PATH]
                                generate images, print their URLs (--out: save them too,
                                PATH-1, PATH-2, … when --n > 1; an existing file is kept)
        [--image FILE|URL]… [--mask FILE|URL]
                                edit the images instead (a file is uploaded first; repeat
                                --image for several)
  embed <text|-> [--model M]    print the text's embedding: model, dimensions, tokens, then the
                                vector as a JSON array ("-" reads stdin; --json: the answer)
  token create --name N --quota CREDITS
                                create an API key (needs the admin key)
  keys list [--status active|revoked|expired] [--limit N] [--all]
                                the gateway's keys, newest first, with their spend (admin key)
  keys show <id>                one key (admin key)
  keys set <id> [--quota CREDITS] [--rpm N|none] [--tpm N|none] [--models a,b|all]
        [--name N] [--expires DATE|never] [--budget CREDITS/day|week|month|none] [--team ID|none]
                                change a key; --quota is its new total (admin key)
  keys revoke <id>              revoke a key for good (admin key)
  teams list [--limit N]        the gateway's teams, with their keys and budgets (admin key)
  teams show <id> | delete <id> one team; delete refuses while it has keys (admin key)
  teams create --name N [--budget CREDITS/day|week|month] [--alert-url URL]
                                a team whose keys' spend counts against one budget (admin key)
  teams set <id> [--name N] [--budget CREDITS/day|week|month|none] [--alert-url URL|none]
                                change a team (admin key); add keys with keys set --team
  audit [--key ID] [--action A] [--limit N]
                                who changed which key, when, before → after (admin key)
  usage [--days N | --hours N] [--by model,key,kind,team] [--key ID] [--model M] [--csv]
                                requests, tokens and credits per day (default: 7) or hour, UTC;
                                every key's with the admin key, else the key's own; --csv
                                prints a row per day or hour and group, for a spreadsheet
  config set <key> <value>      set a profile setting (keys: ${PROFILE_KEYS.join(', ')})
  config get <key>              print a setting as it resolves now
  config use <profile>          make a profile the default
  config list                   list the profiles, the default starred

Options:
  --base-url <url>    gateway address (env MODELGATE_BASE_URL, default http://localhost:8080)
  --api-key <key>     API key (env MODELGATE_API_KEY)
  --admin-key <key>   admin key for token create, keys and usage (env MODELGATE_ADMIN_KEY)
  -m, --model <id>    chat model (env MODELGATE_MODEL, default gpt-4o-mini); for video: the video model;
                      for image: the image model (default: the first \`models\` lists that
                      generates, or edits with --image); for embed: the embedding model;
                      for usage: only that model's usage
  --profile <name>    profile of the config file (env MODELGATE_PROFILE)
  --json              print JSON
  --csv               usage: print CSV
  -h, --help          show this help
  -v, --version       print the version

Settings resolve flags > environment > profile > defaults.
In the chat screen: /help lists the slash commands; Esc or Ctrl+C stops an answer,
Ctrl+C twice exits.`;

type Parsed = ParsedArgs | UsageError;

/**
 * Parses `process.argv.slice(2)`.
 *
 * @example
 * ```ts
 * parseCliArgs(['chat', 'Say hi', '--model', 'gpt-4o']);
 * // → { ok: true, command: { name: 'chat', prompt: 'Say hi' }, flags: { model: 'gpt-4o', … }, json: false }
 * ```
 */
export function parseCliArgs(argv: readonly string[]): Parsed {
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
    adminKey: values['admin-key'],
    model: values.model,
    profile: values.profile,
  };
  const ok = (command: Command): ParsedArgs => ({
    ok: true,
    command,
    flags,
    json: values.json ?? false,
  });

  if (values.help) return ok({ name: 'help' });
  if (values.version) return ok({ name: 'version' });
  const [name, ...rest] = positionals;
  const command = toCommand(name, rest, values);
  return 'message' in command ? { ok: false, message: command.message } : ok(command);
}

function toCommand(
  name: string | undefined,
  rest: string[],
  values: OptionValues,
): Command | { message: string } {
  const api = values.api ?? 'chat';
  if (!isChatApi(api)) return { message: `--api must be one of ${CHAT_APIS.join(', ')}` };
  switch (name) {
    case undefined:
      return { name: 'interactive', api };
    case 'chat':
      // Unquoted words are joined, so `modelgate chat say hi` works like `modelgate chat "say hi"`.
      return { name: 'chat', prompt: rest.length > 0 ? rest.join(' ') : undefined, api };
    case 'models':
    case 'balance':
    case 'budget':
    case 'help':
      return rest.length > 0 ? { message: `"${name}" takes no arguments` } : { name };
    case 'video':
      return videoCommand(rest, values);
    case 'upload':
      return rest.length === 1 && rest[0]
        ? { name: 'upload', file: rest[0] }
        : { message: 'usage: modelgate upload <file>' };
    case 'image':
      return imageCommand(rest, values);
    case 'embed':
      return embedCommand(rest, values);
    case 'token':
      return tokenCommand(rest, values);
    case 'keys':
      return keysCommand(rest, values);
    case 'teams':
      return teamsCommand(rest, values);
    case 'audit':
      return auditCommand(rest, values);
    case 'usage':
      return usageCommand(rest, values);
    case 'config':
      return configCommand(rest);
    default:
      return { message: `Unknown command "${name}"` };
  }
}

function videoCommand(rest: string[], values: OptionValues): Command | { message: string } {
  const [first, ...others] = rest;
  if (first === 'status' || first === 'cancel') {
    const [taskId] = others;
    if (!taskId || others.length > 1)
      return { message: `usage: modelgate video ${first} <task_id>` };
    return { name: first === 'status' ? 'video-status' : 'video-cancel', taskId };
  }
  if (first === 'list') {
    if (others.length > 0) return { message: 'usage: modelgate video list [--limit N]' };
    if (values.limit === undefined) return { name: 'video-list' };
    const limit = positiveNumber(values.limit);
    return limit !== undefined && Number.isInteger(limit)
      ? { name: 'video-list', limit }
      : { message: '--limit must be a positive whole number' };
  }
  const prompt = rest.join(' ').trim();
  if (prompt === '') return { message: 'usage: modelgate video "<prompt>" --model <video model>' };
  if (!values.model) {
    return { message: 'video needs --model <video model> (`modelgate models` lists them)' };
  }
  const command: Command = {
    name: 'video',
    prompt,
    model: values.model,
    wait: values.wait ?? false,
  };
  if (values.image !== undefined) {
    if (values.image.length > 1) return { message: 'a video takes one --image' };
    command.image = values.image[0];
  }
  if (values.duration !== undefined) {
    const duration = positiveNumber(values.duration);
    if (duration === undefined) return { message: '--duration must be a number of seconds' };
    command.duration = duration;
  }
  return command;
}

function tokenCommand(rest: string[], values: OptionValues): Command | { message: string } {
  const usage = 'usage: modelgate token create --name <name> --quota <credits>';
  if (rest.length !== 1 || rest[0] !== 'create' || !values.name || values.quota === undefined) {
    return { message: usage };
  }
  const credits = positiveNumber(values.quota);
  if (credits === undefined) return { message: '--quota must be a positive number of credits' };
  // The API takes units (1 credit = 1,000,000 units); the CLI speaks credits everywhere.
  return { name: 'token-create', tokenName: values.name, quota: creditsToUnits(credits) };
}

function configCommand(rest: string[]): Command | { message: string } {
  const [action, ...args] = rest;
  const keys = PROFILE_KEYS.join(', ');
  if (action === 'set' || action === 'get') {
    const [key, value] = args;
    if (key === undefined || !isProfileKey(key)) {
      return { message: `config ${action}: the key must be one of ${keys}` };
    }
    if (action === 'get')
      return args.length === 1
        ? { name: 'config-get', key }
        : { message: 'usage: modelgate config get <key>' };
    return value !== undefined && args.length === 2
      ? { name: 'config-set', key, value }
      : { message: 'usage: modelgate config set <key> <value>' };
  }
  if (action === 'use' && args.length === 1 && args[0])
    return { name: 'config-use', profile: args[0] };
  if (action === 'list' && args.length === 0) return { name: 'config-list' };
  return {
    message: 'usage: modelgate config set <key> <value> | get <key> | use <profile> | list',
  };
}

function isChatApi(value: string): value is ChatApi {
  return (CHAT_APIS as readonly string[]).includes(value);
}
