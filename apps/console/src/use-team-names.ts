// The names of the teams a page of keys belongs to: the keys carry a team id, people read names.
import type { ModelgateClient } from '@modelgate/core';
import { useLoad } from '@modelgate/react';
import { useCallback } from 'react';

const NONE: ReadonlyMap<number, string> = new Map();

/**
 * id → name of these teams, read one request per distinct team (a page of 20 keys names a few);
 * empty until read, and when a read fails (the screen then shows the ids).
 */
export function useTeamNames(
  client: ModelgateClient,
  ids: readonly (number | null)[],
): ReadonlyMap<number, string> {
  const wanted = [...new Set(ids.filter((id) => id !== null))].sort((a, b) => a - b).join(',');
  const load = useCallback(
    async (signal: AbortSignal) => {
      if (!wanted) return NONE;
      const teams = await Promise.all(
        wanted.split(',').map((id) => client.teams.retrieve(Number(id), { signal })),
      );
      return new Map(teams.map((team) => [team.id, team.name]));
    },
    [client, wanted],
  );
  return useLoad(load).data ?? NONE;
}
