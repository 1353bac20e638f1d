// The keys table's rows (GET /v1/keys, admin key): a first page, the pages "Load more" adds to it,
// and rows changed in place (a revoked key).
import {
  type ApiKey,
  type ApiKeyList,
  type ApiKeyStatus,
  asModelgateError,
  type ListKeysQuery,
  type ModelgateClient,
  type ModelgateError,
} from '@modelgate/core';
import { useLoad } from '@modelgate/react';
import { useCallback, useState } from 'react';

/** A status to filter on, or every key. */
export type KeyFilter = ApiKeyStatus | 'all';

const PAGE_SIZE = 10;

export interface KeysState {
  keys: ApiKey[];
  hasMore: boolean;
  loading: boolean;
  error: ModelgateError | undefined;
  loadMore(): void;
  /** Shows a key's new state in its row. */
  update(key: ApiKey): void;
}

interface MoreState {
  base: ApiKeyList;
  loading: boolean;
  error?: ModelgateError;
}

/** The first page is read again whenever `client`, `filter` or `version` changes. */
export function useKeys(client: ModelgateClient, filter: KeyFilter, version: number): KeysState {
  const loadFirst = useCallback(
    (signal: AbortSignal) => client.keys.list(pageQuery(filter), { signal }),
    [client, filter],
  );
  const first = useLoad(loadFirst, version);
  // What was added to the first page, and how the last "Load more" went: both dropped as soon as
  // the first page is read again.
  const [grown, setGrown] = useState<{ base: ApiKeyList; list: ApiKeyList }>();
  const [more, setMore] = useState<MoreState>();
  const base = first.data;
  const list = grown && grown.base === base ? grown.list : base;
  const moreNow = more && more.base === base ? more : undefined;
  // Changes apply to the rows as they are when the answer arrives, not as they were when asked.
  const grow = (change: (rows: ApiKeyList) => ApiKeyList) => {
    if (!base) return;
    setGrown((g) => ({ base, list: change(g && g.base === base ? g.list : base) }));
  };

  const loadMore = () => {
    if (!base || !list?.next_cursor) return;
    setMore({ base, loading: true });
    client.keys.list({ ...pageQuery(filter), after: list.next_cursor }).then(
      (page) => {
        grow((rows) => ({ ...page, data: [...rows.data, ...page.data] }));
        setMore({ base, loading: false });
      },
      (caught: unknown) => setMore({ base, loading: false, error: asModelgateError(caught) }),
    );
  };
  const update = (key: ApiKey) =>
    grow((rows) => ({ ...rows, data: rows.data.map((k) => (k.id === key.id ? key : k)) }));

  return {
    keys: list?.data ?? [],
    hasMore: list?.has_more ?? false,
    loading: first.loading || (moreNow?.loading ?? false),
    error: first.error ?? moreNow?.error,
    loadMore,
    update,
  };
}

function pageQuery(filter: KeyFilter): ListKeysQuery {
  return filter === 'all' ? { limit: PAGE_SIZE } : { limit: PAGE_SIZE, status: filter };
}
