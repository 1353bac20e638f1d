// The operator's view: with an administrator key every key and everyone's usage, with a normal key
// that key's own usage only.
import type { ModelgateClient } from '@modelgate/core';
import { useReducer } from 'react';
import { ErrorNote } from './ErrorNote.js';
import { KeysTable } from './KeysTable.js';
import { UsageSection } from './UsageSection.js';
import { useKeyRole } from './use-key-role.js';

/** Keys and usage for an administrator key, the key's own usage for a normal one. */
export function OperatorPanel({
  client,
  version,
}: {
  client: ModelgateClient;
  /** Changes after anything that spends credit, so the usage is read again. */
  version: number;
}) {
  const { role, error } = useKeyRole(client);
  // The keys are read again only when asked: reading them drops the pages "Load more" added.
  const [refreshes, refresh] = useReducer((n: number) => n + 1, 0);

  return (
    <section className="panel operator" aria-labelledby="operator-title">
      <header>
        <h2 id="operator-title">{role === 'admin' ? 'Operator' : role ? 'Your usage' : 'Usage'}</h2>
        <button type="button" className="secondary" onClick={refresh} disabled={!role}>
          Refresh
        </button>
      </header>
      <ErrorNote error={error} />
      {role === 'admin' && <KeysTable client={client} version={refreshes} />}
      {role && (
        <UsageSection
          client={client}
          version={version + refreshes}
          whose={role === 'admin' ? 'every key' : 'this key'}
        />
      )}
    </section>
  );
}
