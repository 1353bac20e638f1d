/**
 * The Responses API's other operations: retrieve, delete and input items from the state the
 * gateway keeps, the input-token estimate and compaction. Create is served by the text edge.
 */
import { zCreateResponseRequest } from '@modelgate/core/zod';
import type { Context, Hono } from 'hono';
import { methodNotAllowed } from '../../errors/api-error.js';
import { validateBody } from '../../errors/validate.js';
import type { Services } from '../../services.js';
import { clientAbort } from '../client-abort.js';
import type { AppEnv } from '../env.js';
import { readJsonBody } from '../validate.js';

/** The POST-only operations beside `{response_id}`: their other methods are 405, not a missing id. */
const OPERATIONS = new Set(['compact', 'input_tokens']);

/** The path's response id; a 405 when the segment names one of the POST-only operations. */
function responseId(c: Context<AppEnv>): string {
  const id = c.req.param('response_id') ?? '';
  if (OPERATIONS.has(id)) throw methodNotAllowed(c.req.method, c.req.path, ['POST']);
  return id;
}

export function registerResponseRoutes(app: Hono<AppEnv>, services: Services): void {
  const { responses } = services;
  app.post('/v1/responses/input_tokens', async (c) => {
    const body = validateBody(zCreateResponseRequest, await readJsonBody(c));
    return c.json(await responses.inputTokens(c.get('key'), body));
  });
  app.post('/v1/responses/compact', async (c) => {
    const body = validateBody(zCreateResponseRequest, await readJsonBody(c));
    const compacted = await responses.compact(body, {
      key: c.get('key'),
      requestId: c.get('requestId'),
      startedAt: c.get('startedAt') ?? performance.now(),
      abort: clientAbort(c),
    });
    return c.json(compacted);
  });
  app.get('/v1/responses/:response_id', async (c) =>
    c.json(await responses.retrieve(c.get('key'), responseId(c))),
  );
  app.delete('/v1/responses/:response_id', async (c) =>
    c.json(await responses.remove(c.get('key'), responseId(c))),
  );
  app.get('/v1/responses/:response_id/input_items', async (c) =>
    c.json(await responses.inputItems(c.get('key'), responseId(c))),
  );
}
