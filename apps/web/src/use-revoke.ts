// Revoking a key (POST /v1/keys/{key_id}/revoke, admin key), and what came of the last attempt.
import {
  type ApiKey,
  asModelgateError,
  type ModelgateClient,
  type ModelgateError,
} from '@modelgate/core';
import { useState } from 'react';

export interface RevokeOutcome {
  /** The key as revoked, or as it was when the gateway refused. */
  key: ApiKey;
  error?: ModelgateError;
}

export interface RevokeState {
  /** The id of the key being revoked right now. */
  revoking: number | undefined;
  outcome: RevokeOutcome | undefined;
  revoke(key: ApiKey): void;
}

/** `onRevoked` gets the key as the gateway returns it, now `revoked`. */
export function useRevoke(client: ModelgateClient, onRevoked: (key: ApiKey) => void): RevokeState {
  const [revoking, setRevoking] = useState<number>();
  const [outcome, setOutcome] = useState<RevokeOutcome>();

  const revoke = (target: ApiKey) => {
    setRevoking(target.id);
    setOutcome(undefined);
    client.keys
      .revoke(target.id)
      .then(
        (key) => {
          onRevoked(key);
          setOutcome({ key });
        },
        (caught: unknown) => setOutcome({ key: target, error: asModelgateError(caught) }),
      )
      .finally(() => setRevoking(undefined));
  };
  return { revoking, outcome, revoke };
}
