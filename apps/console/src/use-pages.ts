// Server-side pagination with the API's cursors: the gateway answers one page and the cursor of
// the next; going back re-reads a page from the cursor that opened it, so no list is held whole.

import { type LoadState, useLoad } from '@modelgate/react';
import { useCallback, useState } from 'react';

export interface Page {
  has_more: boolean;
  next_cursor: string | null;
}

export interface PagesState<T extends Page> extends LoadState<T> {
  /** 1-based number of the page shown. */
  number: number;
  next(): void;
  previous(): void;
  hasPrevious: boolean;
}

/**
 * Reads the page that `after` opens. `fetchPage` must be a new function whenever the question
 * changes (a filter): that goes back to the first page. `version` reads the same page again.
 */
export function usePages<T extends Page>(
  fetchPage: (after: string | undefined, signal: AbortSignal) => Promise<T>,
  version = 0,
): PagesState<T> {
  // The cursors that opened each page so far (undefined: the first), for the fetch they belong to.
  const [trail, setTrail] = useState<{ of: typeof fetchPage; cursors: (string | undefined)[] }>({
    of: fetchPage,
    cursors: [undefined],
  });
  const cursors = trail.of === fetchPage ? trail.cursors : [undefined];
  const after = cursors[cursors.length - 1];
  const load = useCallback((signal: AbortSignal) => fetchPage(after, signal), [fetchPage, after]);
  const state = useLoad(load, version);
  const cursor = state.data?.next_cursor;
  return {
    ...state,
    number: cursors.length,
    hasPrevious: cursors.length > 1,
    next: () => {
      if (cursor) setTrail({ of: fetchPage, cursors: [...cursors, cursor] });
    },
    previous: () => setTrail({ of: fetchPage, cursors: cursors.slice(0, -1) }),
  };
}
