import { useState } from 'react';

/** The key field: the key stays in this tab (sessionStorage) and goes only to this gateway. */
export function SignIn({ onSubmit, busy }: { onSubmit: (key: string) => void; busy: boolean }) {
  const [key, setKey] = useState('');
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        if (key.trim()) onSubmit(key.trim());
      }}
    >
      <label>
        API key
        <input
          type="password"
          name="api-key"
          autoComplete="off"
          placeholder="sk-…"
          value={key}
          onChange={(event) => setKey(event.target.value)}
        />
      </label>
      <button type="submit" disabled={busy || !key.trim()}>
        {busy ? 'Checking…' : 'Sign in'}
      </button>
      <p className="hint">
        An administrator key manages every key; any other key sees its own balance, usage, request
        log and tasks, read-only. The key is kept in this tab only, until it closes.
      </p>
    </form>
  );
}
