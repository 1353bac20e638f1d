// The key's balance (GET /v1/dashboard/billing/credit_grants), read again whenever `version` changes.
import type { CreditSummary, ModelgateClient, ModelgateError } from '@modelgate/core';
import { useEffect, useState } from 'react';

export interface BalanceState {
  summary: CreditSummary | undefined;
  error: ModelgateError | undefined;
}

/** `version` is any value that changes after spending (a finished chat turn, a finished video). */
export function useBalance(client: ModelgateClient | null, version: number): BalanceState {
  const [state, setState] = useState<BalanceState>({ summary: undefined, error: undefined });
  useEffect(() => {
    if (!client || version < 0) return;
    const controller = new AbortController();
    client.billing
      .creditGrants({ signal: controller.signal })
      .then((summary) => setState({ summary, error: undefined }))
      .catch((error: ModelgateError) => {
        if (!controller.signal.aborted) setState({ summary: undefined, error });
      });
    return () => controller.abort();
  }, [client, version]);
  return client ? state : { summary: undefined, error: undefined };
}
