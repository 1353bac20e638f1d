import { ErrorNote } from './ErrorNote.js';
import type { ChangeState } from './use-change.js';

/** What the last change did (a status line), or why it was refused. */
export function ChangeOutcome({ change }: { change: ChangeState }) {
  return (
    <>
      {change.notice && (
        <p className="notice" role="status">
          {change.notice}
        </p>
      )}
      <ErrorNote error={change.error} />
    </>
  );
}
