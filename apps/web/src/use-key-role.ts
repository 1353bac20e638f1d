// Whether the key in the settings is an administrator's. The API has no "who am I": the way to
// know is to ask for something only an administrator may read (one key of GET /v1/keys).
import { asModelgateError, type ModelgateClient, type ModelgateError } from '@modelgate/core';
import { useLoad } from '@modelgate/react';
import { useCallback } from 'react';

export type KeyRole = 'admin' | 'user';

export interface KeyRoleState {
  /** Undefined while asking, or when asking failed for another reason than the role (`error`). */
  role: KeyRole | undefined;
  error: ModelgateError | undefined;
}

/** `admin` when the key may list keys; `user` when the gateway answers 403 `admin_key_required`. */
export function useKeyRole(client: ModelgateClient): KeyRoleState {
  const load = useCallback((signal: AbortSignal) => roleOf(client, signal), [client]);
  const { data: role, error } = useLoad(load);
  return { role, error };
}

async function roleOf(client: ModelgateClient, signal: AbortSignal): Promise<KeyRole> {
  try {
    await client.keys.list({ limit: 1 }, { signal });
    return 'admin';
  } catch (caught) {
    const error = asModelgateError(caught);
    if (error.status === 403 && error.code === 'admin_key_required') return 'user';
    throw error;
  }
}
