/**
 * `POST /v1/messages/count_tokens` (the vendor SDK's `messages.countTokens`). Create is served by
 * the text edge; counting is not on the streaming hot path, so it runs through the app's
 * middleware (auth with `x-api-key`, rpm, the vendor error shape under /v1/messages).
 */
import { zCountMessageTokensRequest } from '@modelgate/core/zod';
import type { Hono } from 'hono';
import type { Services } from '../../services.js';
import { clientAbort } from '../client-abort.js';
import type { AppEnv } from '../env.js';
import { validateMessagesBody } from '../messages-body.js';
import { clientBetas, type HeaderReader, readMessagesHeaders } from '../text-edge/routes.js';
import { readJsonBody } from '../validate.js';

/** Where the count came from: `upstream` or `estimate` (spec: TokenCountSource). */
export const TOKEN_COUNT_HEADER = 'x-modelgate-token-count';

export function registerMessageRoutes(app: Hono<AppEnv>, services: Services): void {
  app.post('/v1/messages/count_tokens', async (c) => {
    const header: HeaderReader = (name) => c.req.header(name);
    const versionHeaders = readMessagesHeaders(header);
    const body = validateMessagesBody(zCountMessageTokensRequest, await readJsonBody(c));
    const count = await services.text.countTokens(
      { body, betas: clientBetas(header) },
      { key: c.get('key'), signal: clientAbort(c).signal },
    );
    return c.json({ input_tokens: count.inputTokens }, 200, {
      ...versionHeaders,
      [TOKEN_COUNT_HEADER]: count.source,
    });
  });
}
