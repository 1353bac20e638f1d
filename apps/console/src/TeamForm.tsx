// One form for a team: empty to create one (POST /v1/teams), filled from a team to change its
// name, budget or alert URL (PATCH /v1/teams/{id}). The budget is typed in credits.
import type { CreateTeamRequest, Team } from '@modelgate/core';
import { useState } from 'react';
import { BudgetInputs } from './BudgetInputs.js';
import { budgetFieldsOf, budgetSettingOf } from './budget-fields.js';

export function TeamForm({
  team,
  busy,
  onSubmit,
  onCancel,
}: {
  /** The team to edit; undefined to create one. */
  team?: Team | undefined;
  busy: boolean;
  onSubmit(body: Required<CreateTeamRequest>): void;
  onCancel(): void;
}) {
  const [name, setName] = useState(team?.name ?? '');
  const [alertUrl, setAlertUrl] = useState(team?.alert_url ?? '');
  const [budget, setBudget] = useState(() => budgetFieldsOf(team?.budget));
  const title = team ? `Edit team ${team.name}` : 'New team';
  return (
    <form
      className="key-form"
      aria-label={title}
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit({
          name: name.trim(),
          budget: budgetSettingOf(budget),
          alert_url: alertUrl.trim() || null,
        });
      }}
    >
      <h2>{title}</h2>
      <label>
        Name
        <input
          name="team_name"
          required
          maxLength={64}
          value={name}
          onChange={(e) => setName(e.target.value)}
        />
      </label>
      <BudgetInputs value={budget} onChange={setBudget} />
      <label>
        Alert URL (empty: the gateway's)
        <input
          name="alert_url"
          type="url"
          value={alertUrl}
          onChange={(e) => setAlertUrl(e.target.value)}
        />
      </label>
      <p className="actions">
        <button type="submit" disabled={busy}>
          {team ? 'Save' : 'Create team'}
        </button>
        <button type="button" className="secondary" onClick={onCancel}>
          Cancel
        </button>
      </p>
    </form>
  );
}
