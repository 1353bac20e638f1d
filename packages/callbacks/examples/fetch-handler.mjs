// A fetch-style receiver: the same handler serves Deno, Bun, Cloudflare Workers, Hono and Next.js.
import { createFetchHandler, generateCallbackSecret, signCallback } from '@modelgate/callbacks';

const secret = globalThis.process?.env.MODELGATE_CALLBACK_SECRET || generateCallbackSecret();

const handler = createFetchHandler({ secret }, async (event) => {
  console.log('received', event.type, event.data.task_id);
});

// Deno:                Deno.serve(handler);
// Bun / Workers:       export default { fetch: handler };
// Hono:                app.post('/callbacks', (c) => handler(c.req.raw));
// Next.js route file:  export const POST = handler;

// Run here with a signed Request, as modelgate would send it.
const body = JSON.stringify({
  type: 'video.task.cancelled',
  timestamp: Math.floor(Date.now() / 1000),
  data: { task_id: 'vt_fetch', status: 'cancelled' },
});
const headers = await signCallback({
  id: 'msg_fetch_example',
  timestamp: new Date(),
  body,
  secret,
});
const ok = await handler(
  new Request('http://localhost/callbacks', { method: 'POST', body, headers }),
);
console.log('answered', ok.status);

const forged = await handler(
  new Request('http://localhost/callbacks', {
    method: 'POST',
    body: body.replace('vt_', 'xx_'),
    headers,
  }),
);
console.log('answered', forged.status, (await forged.json()).error.reason);
