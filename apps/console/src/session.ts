// The signed-in key: pasted into the page and kept in sessionStorage, so it lasts while the tab is
// open and is gone when it closes (a key left in localStorage outlives the operator's session).
import { asModelgateError, createClient, type ModelgateClient } from '@modelgate/core';

const STORAGE_KEY = 'modelgate.console.key';

export type Role = 'admin' | 'user';

export interface Session {
  client: ModelgateClient;
  role: Role;
  /** The key's first characters, to show who is signed in without showing the secret. */
  keyPrefix: string;
}

/** The stored key, or null. */
export function storedKey(): string | null {
  return sessionStorage.getItem(STORAGE_KEY);
}

export function forgetKey(): void {
  sessionStorage.removeItem(STORAGE_KEY);
}

/**
 * Checks the key against the gateway that served the page and finds its role. The API has no
 * "who am I": the balance endpoint proves the key works, and listing one key (administrators only)
 * tells an administrator from a user (403 `admin_key_required`).
 */
export async function signIn(apiKey: string): Promise<Session> {
  const client = createClient({ baseUrl: location.origin, apiKey });
  await client.billing.creditGrants();
  let role: Role = 'admin';
  try {
    await client.keys.list({ limit: 1 });
  } catch (caught) {
    const error = asModelgateError(caught);
    if (error.status !== 403 || error.code !== 'admin_key_required') throw error;
    role = 'user';
  }
  sessionStorage.setItem(STORAGE_KEY, apiKey);
  return { client, role, keyPrefix: apiKey.slice(0, 8) };
}
