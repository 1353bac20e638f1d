import { type ModelgateError, UpstreamError } from '@modelgate/core';

/**
 * A failure as the API reports it: status, machine-readable code, message. A provider failing
 * (also mid-answer) says "upstream"; only a failure with no answer at all says "network".
 */
export function ErrorNote({ error }: { error: ModelgateError | undefined }) {
  if (!error) return null;
  const label =
    error instanceof UpstreamError
      ? `${error.status ?? ''} upstream`.trim()
      : (error.status ?? 'network');
  return (
    <p className="error" role="alert">
      <strong>{label}</strong>
      {error.code ? <code>{error.code}</code> : null} {error.message}
    </p>
  );
}
