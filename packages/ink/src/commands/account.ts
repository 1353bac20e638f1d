// `modelgate models` and `modelgate balance`: one request, one answer on stdout.
import type { CreditSummary, ModelgateClient } from '@modelgate/core';
import { formatBalance, formatModelTable } from '../format.js';
import { budgetPhrase } from '../format-teams.js';
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
 * Prints `GET /v1/dashboard/billing/credit_grants` as one line of credits, then a line per budget
 * the key's spend counts against (its own, its team's).
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
    if (input.json) return JSON.stringify(summary, null, 2);
    return [formatBalance(summary), ...budgetLines(summary)].join('\n');
  });
}

/**
 * Prints only the budgets of the key presented (`modelgate budget`): its own and its team's, each
 * with what the period has spent and when it resets; `no budget` when there is none.
 *
 * @example
 * ```ts
 * process.exitCode = await runBudgetCommand({ client, json: false }, process);
 * ```
 */
export async function runBudgetCommand(input: AccountCommandInput, io: CommandIO): Promise<number> {
  return printResult(io, async () => {
    const { budgets } = await input.client.billing.creditGrants({ signal: io.signal });
    if (input.json) return JSON.stringify(budgets, null, 2);
    const lines = budgetLines({ budgets });
    return lines.length > 0 ? lines.join('\n') : 'no budget';
  });
}

/** `key budget: …` and `team budget: …`, for the budgets there are. */
function budgetLines({ budgets }: Pick<CreditSummary, 'budgets'>): string[] {
  const lines: string[] = [];
  if (budgets.key) lines.push(`key budget: ${budgetPhrase(budgets.key)}`);
  if (budgets.team) lines.push(`team budget: ${budgetPhrase(budgets.team)}`);
  return lines;
}
