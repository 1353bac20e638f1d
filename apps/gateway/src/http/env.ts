/** The Hono environment every gateway route shares. */
import type { AuthKey } from '../keys/keys.js';
import type { Exchange } from './exchange.js';

export type AppEnv = {
  Variables: {
    /** The request as the pipeline's stages saw it (`pipeline.ts`). */
    exchange: Exchange;
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
