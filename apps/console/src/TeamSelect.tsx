// The team a key's spend also counts against, picked by name from any number of teams: the
// gateway searches the names (`GET /v1/teams?name=`) and pages the matches with its cursor.
import type { ModelgateClient } from '@modelgate/core';
import { useLoad } from '@modelgate/react';
import { useCallback, useEffect, useState } from 'react';
import { Pager } from './Pager.js';
import { usePages } from './use-pages.js';

/** Teams per page of the select: a screenful of options. */
const PAGE_SIZE = 20;
/** Typing pauses this long before the search is sent, so a name is one request, not one per key. */
const SEARCH_DELAY_MS = 250;

export function TeamSelect({
  client,
  value,
  onChange,
}: {
  client: ModelgateClient;
  value: number | null;
  onChange(team: number | null): void;
}) {
  const [typed, setTyped] = useState('');
  const [name, setName] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setName(typed.trim()), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [typed]);
  const fetchPage = useCallback(
    (after: string | undefined, signal: AbortSignal) =>
      client.teams.list({ limit: PAGE_SIZE, after, name: name || undefined }, { signal }),
    [client, name],
  );
  const pages = usePages(fetchPage);
  const listed = pages.data?.data ?? [];
  const chosen = useChosenTeam(client, listed.some((t) => t.id === value) ? null : value);

  return (
    <>
      <label>
        Find a team by name
        <input
          name="team_search"
          type="search"
          value={typed}
          onChange={(event) => setTyped(event.target.value)}
          // Enter searches at once instead of submitting the key's form.
          onKeyDown={(event) => {
            if (event.key !== 'Enter') return;
            event.preventDefault();
            setName(typed.trim());
          }}
        />
      </label>
      <label>
        Team
        <select
          name="team"
          value={value === null ? '' : String(value)}
          aria-busy={pages.loading}
          onChange={(event) => onChange(event.target.value ? Number(event.target.value) : null)}
        >
          <option value="">none</option>
          {/* The key's own team when it is not among the matches shown: the select never shows
              "none" for a key that has a team. Named once read, "team <id>" until then. */}
          {value !== null && !listed.some((t) => t.id === value) && (
            <option value={value}>{chosen ?? `team ${value}`}</option>
          )}
          {listed.map((team) => (
            <option key={team.id} value={team.id}>
              {team.name}
            </option>
          ))}
        </select>
      </label>
      {pages.data?.data.length === 0 && <p className="hint">No team's name contains "{name}".</p>}
      {(pages.hasPrevious || pages.data?.has_more) && <Pager pages={pages} label="Team choices" />}
    </>
  );
}

/** The name of the chosen team when the page shown does not hold it (undefined: none to read). */
function useChosenTeam(client: ModelgateClient, id: number | null): string | undefined {
  const load = useCallback(
    async (signal: AbortSignal) =>
      id === null ? undefined : client.teams.retrieve(id, { signal }),
    [client, id],
  );
  return useLoad(load).data?.name;
}
