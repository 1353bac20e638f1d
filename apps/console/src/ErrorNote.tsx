import type { ModelgateError } from '@modelgate/core';

/** What to do about the refusals an operator meets in the console, beyond the gateway's message. */
const HINTS: Record<string, string> = {
  revoking_own_key:
    'You are signed in with this key: sign in with another administrator key to revoke it.',
  quota_below_used: 'A quota cannot be set below what the key has already used.',
  key_revoked: 'A revoked key cannot be changed.',
  admin_key_required: 'This needs an administrator key.',
  budget_exceeded:
    'The budget named above is spent for this period: raise it (Keys or Teams) or wait for its reset.',
  team_has_keys: 'Edit each of its keys on the Keys screen and set its team to none.',
  delivery_pending:
    'Its next attempt is already scheduled: wait for it, or for the delivery to fail.',
};

/** What the gateway refused and why: status, machine-readable code, message, and a hint. */
export function ErrorNote({ error }: { error: ModelgateError | undefined }) {
  if (!error) return null;
  const hint = error.code ? HINTS[error.code] : undefined;
  return (
    <p className="error" role="alert">
      <strong>{error.status ?? 'network'}</strong> {error.code ? <code>{error.code}</code> : null}{' '}
      {error.message}
      {hint ? <span className="hint"> {hint}</span> : null}
    </p>
  );
}
