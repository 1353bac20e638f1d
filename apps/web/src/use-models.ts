// GET /v1/models once per client: the pickers of both panels come from it.
import type { Model, ModelgateClient, ModelgateError } from '@modelgate/core';
import { useEffect, useState } from 'react';

export interface ModelsState {
  models: Model[];
  error: ModelgateError | undefined;
  loading: boolean;
}

export function useModels(client: ModelgateClient | null): ModelsState {
  const [state, setState] = useState<ModelsState>({ models: [], error: undefined, loading: false });
  useEffect(() => {
    if (!client) {
      setState({ models: [], error: undefined, loading: false });
      return;
    }
    const controller = new AbortController();
    setState((s) => ({ ...s, loading: true }));
    client.models
      .list({ signal: controller.signal })
      .then((list) => setState({ models: list.data, error: undefined, loading: false }))
      .catch((error: ModelgateError) => {
        if (!controller.signal.aborted) setState({ models: [], error, loading: false });
      });
    return () => controller.abort();
  }, [client]);
  return state;
}
