import type { ModelgateClient } from '@modelgate/core';
import { useLoad } from '@modelgate/react';
import { useCallback } from 'react';

/** Teams listed in the select: the first page of 100 covers a gateway's teams in practice. */
const TEAMS_SHOWN = 100;

/** The team a key's spend also counts against, chosen by name, or none. */
export function TeamSelect({
  client,
  value,
  onChange,
}: {
  client: ModelgateClient;
  value: number | null;
  onChange(team: number | null): void;
}) {
  const load = useCallback(
    (signal: AbortSignal) => client.teams.list({ limit: TEAMS_SHOWN }, { signal }),
    [client],
  );
  const { data } = useLoad(load);
  return (
    <label>
      Team
      <select
        name="team"
        value={value === null ? '' : String(value)}
        onChange={(event) => onChange(event.target.value ? Number(event.target.value) : null)}
      >
        <option value="">none</option>
        {data?.data.map((team) => (
          <option key={team.id} value={team.id}>
            {team.name}
          </option>
        ))}
        {/* The key's own team while the list loads (or when it is beyond the first page): the
            select never shows "none" for a key that has a team. */}
        {value !== null && !data?.data.some((t) => t.id === value) && (
          <option value={value}>team {value}</option>
        )}
      </select>
    </label>
  );
}
