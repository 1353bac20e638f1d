// Verify a callback by hand: raw body + headers + secret → the typed event, or a reason why not.
import {
  CallbackVerificationError,
  generateCallbackSecret,
  signCallback,
  verifyCallback,
} from '@modelgate/callbacks';

// Your key's secret, from POST /v1/token (callback_secret) or GET /v1/callbacks/secret.
const secret = process.env.MODELGATE_CALLBACK_SECRET || generateCallbackSecret();

// What modelgate sends (signed here so the example runs on its own).
const body = JSON.stringify({
  type: 'video.task.completed',
  timestamp: Math.floor(Date.now() / 1000),
  data: { task_id: 'vt_example', object: 'video.task', status: 'completed' },
});
const headers = await signCallback({ id: 'msg_example', timestamp: new Date(), body, secret });

// What your receiver does with the raw body and the request headers.
const event = await verifyCallback({ body, headers, secret });
console.log('verified', event.type, event.data.task_id);

try {
  await verifyCallback({ body: body.replace('completed', 'failed'), headers, secret });
} catch (error) {
  if (error instanceof CallbackVerificationError) console.log('refused', error.reason);
}
