// `modelgate teams list|show|create|set|delete`: teams and their budgets, with the admin key.
import type { ModelgateClient, Team } from '@modelgate/core';
import { formatTeamLines } from '../format-teams.js';
import type { TeamsCommand } from '../teams-args.js';
import { type CommandIO, printResult } from './io.js';

export interface TeamsCommandInput {
  /** A client that sends the admin key. */
  adminClient: ModelgateClient;
  /** Print the gateway's JSON instead of text. */
  json: boolean;
}

/**
 * Runs one `teams` command: `teams-list` prints a team a line (the first page), the others the
 * team's line as it is afterwards (`teams-delete`: `deleted team N`). `json` prints the gateway's
 * JSON instead.
 *
 * @example
 * ```ts
 * const team = { name: 'research', budget: { amount: 5_000_000, period: 'day' } } as const;
 * await runTeamsCommand({ name: 'teams-create', team }, { adminClient, json: false }, process);
 * ```
 */
export function runTeamsCommand(
  command: TeamsCommand,
  input: TeamsCommandInput,
  io: CommandIO,
): Promise<number> {
  const { adminClient, json } = input;
  const options = { signal: io.signal };
  switch (command.name) {
    case 'teams-list':
      return printResult(io, async () => {
        const query = command.limit === undefined ? {} : { limit: command.limit };
        const list = await adminClient.teams.list(query, options);
        if (json) return JSON.stringify(list, null, 2);
        return list.data.length === 0
          ? 'no teams'
          : formatTeamLines(list.data, io.stdout.isTTY === true).join('\n');
      });
    case 'teams-show':
      return printTeam(io, json, () => adminClient.teams.retrieve(command.teamId, options));
    case 'teams-create':
      return printTeam(io, json, () => adminClient.teams.create(command.team, options));
    case 'teams-set':
      return printTeam(io, json, () =>
        adminClient.teams.update(command.teamId, command.changes, options),
      );
    case 'teams-delete':
      return printResult(io, async () => {
        const deleted = await adminClient.teams.delete(command.teamId, options);
        return json ? JSON.stringify(deleted, null, 2) : `deleted team ${deleted.id}`;
      });
  }
}

function printTeam(io: CommandIO, json: boolean, load: () => Promise<Team>): Promise<number> {
  return printResult(io, async () => {
    const team = await load();
    return json ? JSON.stringify(team, null, 2) : formatTeamLines([team], false).join('\n');
  });
}
