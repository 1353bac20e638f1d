import type { Token } from '@modelgate/core';
import { useState } from 'react';

/** A new key's secret, shown this once (the API never returns it again), with a copy button. */
export function SecretBox({ token, onDone }: { token: Token; onDone(): void }) {
  const [copied, setCopied] = useState(false);
  return (
    <aside className="secret" aria-label="New key secret">
      <p>
        Key <strong>{token.name}</strong> (id {token.id}) created. Copy its secret now: it is not
        shown again.
      </p>
      <p>
        <code data-testid="new-key-secret">{token.key}</code>{' '}
        <button
          type="button"
          onClick={() => navigator.clipboard.writeText(token.key).then(() => setCopied(true))}
        >
          {copied ? 'Copied' : 'Copy'}
        </button>
      </p>
      <p className="hint">
        Its callback signing secret: <code>{token.callback_secret}</code>
      </p>
      <button type="button" className="secondary" onClick={onDone}>
        Done
      </button>
    </aside>
  );
}
