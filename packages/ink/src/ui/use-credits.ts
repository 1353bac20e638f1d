// The key's balance for the status line, /balance and the cost of each turn.
import type { CreditSummary, ModelgateClient } from '@modelgate/core';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { describeError, type ErrorInfo } from '../errors.js';

export interface CreditsControls {
  /** The last answer: `undefined` while loading, an error when it could not be read. */
  credits: CreditSummary | ErrorInfo | undefined;
  /** The last summary read successfully (what a turn's cost is measured from). */
  lastSummary(): CreditSummary | undefined;
  /** Reads the balance again; never rejects. */
  refresh(): Promise<CreditSummary | ErrorInfo>;
}

/**
 * Reads `GET /v1/dashboard/billing/credit_grants` on mount and whenever `refresh` is called.
 *
 * @example
 * ```tsx
 * const { credits, refresh } = useCredits(client);
 * ```
 */
export function useCredits(client: ModelgateClient): CreditsControls {
  const [credits, setCredits] = useState<CreditSummary | ErrorInfo | undefined>(undefined);
  const last = useRef<CreditSummary | undefined>(undefined);
  const mounted = useRef(true);
  useEffect(
    () => () => {
      mounted.current = false;
    },
    [],
  );

  const refresh = useCallback(async (): Promise<CreditSummary | ErrorInfo> => {
    let result: CreditSummary | ErrorInfo;
    try {
      result = await client.billing.creditGrants({ maxRetries: 0 });
    } catch (error) {
      result = describeError(error);
    }
    if ('total_available' in result) last.current = result;
    if (mounted.current) setCredits(result);
    return result;
  }, [client]);

  useEffect(() => {
    void refresh();
  }, [refresh]);

  const lastSummary = useCallback(() => last.current, []);
  return useMemo(() => ({ credits, lastSummary, refresh }), [credits, lastSummary, refresh]);
}
