// A Node receiver: callbackHandler is a request listener and Express-style middleware.
import http from 'node:http';
import { generateCallbackSecret, signCallback } from '@modelgate/callbacks';
import { callbackHandler } from '@modelgate/callbacks/node';

const secret = process.env.MODELGATE_CALLBACK_SECRET || generateCallbackSecret();
const seen = new Set(); // deliveries are at least once: dedupe by webhook-id

const server = http.createServer(
  callbackHandler({ secret }, (event, req) => {
    const id = req.headers['webhook-id'];
    if (seen.has(id)) return; // already handled; the handler still answers 204
    seen.add(id);
    console.log('received', event.type, event.data.task_id);
  }),
);
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${server.address().port}/callbacks`;

// Play modelgate: POST one signed callback, then close.
const body = JSON.stringify({
  type: 'video.task.failed',
  timestamp: Math.floor(Date.now() / 1000),
  data: { task_id: 'vt_node', status: 'failed' },
});
const headers = await signCallback({ id: 'msg_node_example', timestamp: new Date(), body, secret });
const response = await fetch(url, {
  method: 'POST',
  body,
  headers: { ...headers, 'content-type': 'application/json' },
});
console.log('answered', response.status);
server.close();
