import type { ModelgateError } from '@modelgate/core';

/** A failure as the API reports it: status, machine-readable code, message. */
export function ErrorNote({ error }: { error: ModelgateError | undefined }) {
  if (!error) return null;
  return (
    <p className="error" role="alert">
      <strong>{error.status ?? 'network'}</strong>
      {error.code ? <code>{error.code}</code> : null} {error.message}
    </p>
  );
}
