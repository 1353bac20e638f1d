// One form for a key's settings: empty to create a key (POST /v1/token), filled from a key to
// change it (PATCH /v1/keys/{id}, only the fields that changed). Amounts are typed in credits.
import type {
  ApiKey,
  CreateTokenRequest,
  ModelgateClient,
  UpdateKeyRequest,
} from '@modelgate/core';
import { useState } from 'react';
import { BudgetInputs } from './BudgetInputs.js';
import { type BudgetFields, budgetFieldsOf, budgetSettingOf } from './budget-fields.js';
import { optionalInt, parseUtc, toUtcField, UNITS_PER_CREDIT } from './format.js';
import { TeamSelect } from './TeamSelect.js';

interface Fields {
  name: string;
  quota: string;
  models: string;
  rpm: string;
  tpm: string;
  expires: string;
  budget: BudgetFields;
  team: number | null;
}

/** The fields typed into inputs. */
type TextField = Exclude<keyof Fields, 'budget' | 'team'>;

function fieldsOf(key: ApiKey | undefined): Fields {
  return {
    name: key?.name ?? '',
    quota: key?.quota == null ? '' : String(key.quota / UNITS_PER_CREDIT),
    models: key?.models?.join(', ') ?? '',
    rpm: key?.rpm == null ? '' : String(key.rpm),
    tpm: key?.tpm == null ? '' : String(key.tpm),
    expires: toUtcField(key?.expires_at ?? null),
    budget: budgetFieldsOf(key?.budget),
    team: key?.team_id ?? null,
  };
}

/** The settings as the API takes them (the name, and the others with null for "no limit"). */
function settingsOf(fields: Fields): Required<UpdateKeyRequest> {
  const models = fields.models
    .split(',')
    .map((m) => m.trim())
    .filter(Boolean);
  return {
    name: fields.name.trim(),
    quota: Math.round(Number(fields.quota || '0') * UNITS_PER_CREDIT),
    models: models.length > 0 ? models : null,
    rpm: optionalInt(fields.rpm),
    tpm: optionalInt(fields.tpm),
    expires_at: parseUtc(fields.expires) ?? null,
    budget: budgetSettingOf(fields.budget),
    team_id: fields.team,
  };
}

/** Only what differs from the key, so an unchanged field is never sent (nor checked again). */
function changesFrom(key: ApiKey, next: Required<UpdateKeyRequest>): UpdateKeyRequest {
  const before = settingsOf(fieldsOf(key));
  const change: UpdateKeyRequest = {};
  for (const field of Object.keys(next) as (keyof UpdateKeyRequest)[]) {
    if (JSON.stringify(next[field]) !== JSON.stringify(before[field])) {
      Object.assign(change, { [field]: next[field] });
    }
  }
  return change;
}

export type KeyFormProps =
  | {
      mode: 'create';
      client: ModelgateClient;
      onSubmit(body: CreateTokenRequest): void;
      onCancel(): void;
      busy: boolean;
    }
  | {
      mode: 'edit';
      client: ModelgateClient;
      apiKey: ApiKey;
      onSubmit(body: UpdateKeyRequest): void;
      onCancel(): void;
      busy: boolean;
    };

export function KeyForm(props: KeyFormProps) {
  const [fields, setFields] = useState(() =>
    fieldsOf(props.mode === 'edit' ? props.apiKey : undefined),
  );
  const field = (name: TextField) => ({
    name,
    value: fields[name],
    onChange: (event: { target: { value: string } }) =>
      setFields((f) => ({ ...f, [name]: event.target.value })),
  });
  const submit = () => {
    const settings = settingsOf(fields);
    if (props.mode === 'create') {
      const { name, quota, ...limits } = settings;
      props.onSubmit({ name, quota, ...limits });
    } else props.onSubmit(changesFrom(props.apiKey, settings));
  };
  const title = props.mode === 'create' ? 'New key' : `Edit key ${props.apiKey.id}`;

  return (
    <form
      className="key-form"
      aria-label={title}
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <h2>{title}</h2>
      <label>
        Name
        <input required maxLength={64} {...field('name')} />
      </label>
      <label>
        Quota (credits)
        <input type="number" min={0} step="any" required {...field('quota')} />
      </label>
      <label>
        Models (comma-separated; empty: all)
        <input {...field('models')} placeholder="gpt-4o-mini, kling-v3" />
      </label>
      <label>
        Requests per minute (empty: unlimited)
        <input type="number" min={1} step={1} {...field('rpm')} />
      </label>
      <label>
        Tokens per minute (empty: unlimited)
        <input type="number" min={1} step={1} {...field('tpm')} />
      </label>
      <label>
        Expires (UTC; empty: never)
        <input type="datetime-local" {...field('expires')} />
      </label>
      <BudgetInputs
        value={fields.budget}
        onChange={(budget) => setFields((f) => ({ ...f, budget }))}
      />
      <TeamSelect
        client={props.client}
        value={fields.team}
        onChange={(team) => setFields((f) => ({ ...f, team }))}
      />
      <p className="actions">
        <button type="submit" disabled={props.busy}>
          {props.mode === 'create' ? 'Create key' : 'Save'}
        </button>
        <button type="button" className="secondary" onClick={props.onCancel}>
          Cancel
        </button>
      </p>
    </form>
  );
}
