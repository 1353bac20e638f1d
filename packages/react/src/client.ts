// Every hook takes either a ready client or the two settings needed to make one.
import { createClient, type ModelgateClient } from '@modelgate/core';
import { useMemo } from 'react';

/**
 * Where a hook sends its requests: a client you created (share one across hooks), or a base URL and
 * an API key from which the hook creates one (re-created only when either changes).
 */
export type ClientSource =
  | { client: ModelgateClient; baseUrl?: undefined; apiKey?: undefined }
  | { client?: undefined; baseUrl: string; apiKey?: string | undefined };

/** Resolves a {@link ClientSource} to a client that stays the same object across renders. */
export function useClientSource(source: ClientSource): ModelgateClient {
  const { client, baseUrl, apiKey } = source;
  return useMemo(() => {
    if (client) return client;
    if (!baseUrl) throw new TypeError('@modelgate/react: pass either `client` or `baseUrl`');
    return createClient({ baseUrl, apiKey });
  }, [client, baseUrl, apiKey]);
}
