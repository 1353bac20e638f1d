/** The Hono environment every gateway route shares. */
import type { AuthKey } from '../keys/keys.js';

export type AppEnv = {
  Variables: {
    /** Set for every request (x-request-id). */
    requestId: string;
    /** Set by the auth middleware on /v1/* routes. */
    key: AuthKey;
    /** performance.now() when the request arrived (for x-modelgate-overhead-ms and logs). */
    startedAt: number;
    /** Set by the not-found handler: no route matched (metrics label "unmatched"). */
    unmatched: boolean;
  };
};
