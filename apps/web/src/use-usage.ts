// The usage report (GET /v1/usage) of a range, split by model: the key's own, or with an
// administrator key every key's.
import type { ModelgateClient, UsageReport } from '@modelgate/core';
import { type LoadState, useLoad } from '@modelgate/react';
import { useCallback } from 'react';
import { type UsageRange, usageQuery } from './usage-figures.js';

/** Read again whenever `version` changes (something was spent, or the operator asked). */
export function useUsage(
  client: ModelgateClient,
  range: UsageRange,
  version: number,
): LoadState<UsageReport> {
  const load = useCallback(
    (signal: AbortSignal) => client.usage.retrieve(usageQuery(range, Date.now()), { signal }),
    [client, range],
  );
  return useLoad(load, version);
}
