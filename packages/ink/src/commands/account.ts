// `modelgate models` and `modelgate balance`: one request, one answer on stdout.
import type { ModelgateClient } from '@modelgate/core';
import { formatBalance, formatModelTable } from '../format.js';
import { type CommandIO, printResult } from './io.js';

export interface AccountCommandInput {
  client: ModelgateClient;
  /** Print the gateway's JSON instead of text. */
  json: boolean;
}

/**
 * Lists `GET /v1/models` as `id  type  owned_by` rows.
 *
 * @example
 * ```ts
 * process.exitCode = await runModelsCommand({ client, json: false }, process);
 * ```
 */
export async function runModelsCommand(input: AccountCommandInput, io: CommandIO): Promise<number> {
  return printResult(io, async () => {
    const list = await input.client.models.list({ signal: io.signal });
    return input.json ? JSON.stringify(list, null, 2) : formatModelTable(list.data).join('\n');
  });
}

/**
 * Prints `GET /v1/dashboard/billing/credit_grants` as one line of credits.
 *
 * @example
 * ```ts
 * process.exitCode = await runBalanceCommand({ client, json: false }, process);
 * ```
 */
export async function runBalanceCommand(
  input: AccountCommandInput,
  io: CommandIO,
): Promise<number> {
  return printResult(io, async () => {
    const summary = await input.client.billing.creditGrants({ signal: io.signal });
    return input.json ? JSON.stringify(summary, null, 2) : formatBalance(summary);
  });
}
