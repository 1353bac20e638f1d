// One change at a time on a list screen (create, edit, top up, revoke, delete): the change runs,
// the screen says what happened or why not, and on success the list is read again.
import { asModelgateError, type ModelgateError } from '@modelgate/core';
import { useState } from 'react';

export interface ChangeState {
  /** Moves after each successful change (and on `reload`): pass it to the list's loader. */
  version: number;
  /** A change is running: submit buttons wait. */
  busy: boolean;
  /** What the last change answered, when it succeeded. */
  notice: string | undefined;
  /** Why the last change was refused. */
  error: ModelgateError | undefined;
  /** Runs `change` (which says what it did); on success calls `onSuccess` and reads the list again. */
  run(change: () => Promise<string>): Promise<void>;
  /** Reads the list again without a change. */
  reload(): void;
}

/**
 * @example
 * const change = useChange(() => setPanel(undefined));
 * const pages = usePages(fetchPage, change.version);
 * void change.run(async () => { await client.teams.delete(id); return `Team ${id} deleted.`; });
 */
export function useChange(onSuccess?: () => void): ChangeState {
  const [version, setVersion] = useState(0);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ModelgateError>();
  const [notice, setNotice] = useState<string>();
  const reload = () => setVersion((v) => v + 1);
  const run = async (change: () => Promise<string>) => {
    setBusy(true);
    setError(undefined);
    setNotice(undefined);
    try {
      setNotice(await change());
      onSuccess?.();
      reload();
    } catch (caught) {
      setError(asModelgateError(caught));
    } finally {
      setBusy(false);
    }
  };
  return { version, busy, notice, error, run, reload };
}
