// `modelgate keys list|show|set|revoke`: the gateway's keys, seen and changed with the admin key.
import type { ApiKey, ApiKeyList, ListKeysQuery, ModelgateClient } from '@modelgate/core';
import { formatKeyLines } from '../format-keys.js';
import type { KeysCommand } from '../keys-args.js';
import { type CommandIO, ExitCode, printResult, reportFailure } from './io.js';

/** Page size of `keys list --all` without `--limit`: the API's largest, the fewest requests. */
const ALL_PAGE_SIZE = 100;

export interface KeysCommandInput {
  /** A client that sends the admin key. */
  adminClient: ModelgateClient;
  /** Print the gateway's JSON instead of text. */
  json: boolean;
}

type ListCommand = Extract<KeysCommand, { name: 'keys-list' }>;

/**
 * Runs one `keys` command. `keys-list` prints a key a line (columns on a terminal, plain lines in
 * a pipe), the first page or with `all` every page; `keys-show`, `keys-set` and `keys-revoke`
 * print the key's line as it is afterwards. `json` prints the gateway's JSON instead (with `all`:
 * one list holding every key).
 *
 * @example
 * ```ts
 * const adminClient = createClient({ baseUrl, apiKey: process.env.MODELGATE_ADMIN_KEY });
 * await runKeysCommand({ name: 'keys-set', keyId: 7, changes: { quota: 50_000_000 } }, { adminClient, json: false }, process);
 * ```
 */
export function runKeysCommand(
  command: KeysCommand,
  input: KeysCommandInput,
  io: CommandIO,
): Promise<number> {
  const { adminClient } = input;
  const options = { signal: io.signal };
  switch (command.name) {
    case 'keys-list':
      return listKeys(command, input, io);
    case 'keys-show':
      return printKey(io, input.json, () => adminClient.keys.retrieve(command.keyId, options));
    case 'keys-set':
      return printKey(io, input.json, () =>
        adminClient.keys.update(command.keyId, command.changes, options),
      );
    case 'keys-revoke':
      return printKey(io, input.json, () => adminClient.keys.revoke(command.keyId, options));
  }
}

async function listKeys(command: ListCommand, input: KeysCommandInput, io: CommandIO) {
  try {
    const query: ListKeysQuery = {};
    if (command.status !== undefined) query.status = command.status;
    if (command.limit !== undefined) query.limit = command.limit;
    const list = command.all
      ? await everyKey(input.adminClient, { limit: ALL_PAGE_SIZE, ...query }, io.signal)
      : await input.adminClient.keys.list(query, { signal: io.signal });
    const aligned = io.stdout.isTTY === true;
    const lines = input.json ? [JSON.stringify(list, null, 2)] : formatKeyLines(list.data, aligned);
    if (lines.length > 0) io.stdout.write(`${lines.join('\n')}\n`);
    return ExitCode.ok;
  } catch (error) {
    return reportFailure(io, error);
  }
}

/** Every page, following `next_cursor`, as one list that has no more. */
async function everyKey(
  client: ModelgateClient,
  query: ListKeysQuery,
  signal: AbortSignal | undefined,
): Promise<ApiKeyList> {
  const data: ApiKey[] = [];
  let after: string | undefined;
  do {
    const page = await client.keys.list(after === undefined ? query : { ...query, after }, {
      signal,
    });
    data.push(...page.data);
    after = page.next_cursor ?? undefined;
  } while (after !== undefined);
  return { object: 'list', data, has_more: false, next_cursor: null };
}

function printKey(io: CommandIO, json: boolean, load: () => Promise<ApiKey>): Promise<number> {
  return printResult(io, async () => {
    const key = await load();
    return json ? JSON.stringify(key, null, 2) : formatKeyLines([key], false).join('\n');
  });
}
