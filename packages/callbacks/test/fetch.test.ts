import { describe, expect, it } from 'vitest';
import {
  CallbackVerificationError,
  createFetchHandler,
  generateCallbackSecret,
  signCallback,
  verifyRequest,
  type WebhookEvent,
} from '../src/index.js';

const secret = generateCallbackSecret();
const event = {
  type: 'video.task.failed',
  timestamp: 1_700_000_000,
  data: { task_id: 'vt_2', status: 'failed', error: { code: 'upstream_error', message: 'x' } },
};
const body = JSON.stringify(event);

async function signedRequest(
  init: { body?: string; secret?: string; headers?: Record<string, string> } = {},
): Promise<Request> {
  const payload = init.body ?? body;
  const headers = await signCallback({
    id: 'msg_fetch',
    timestamp: new Date(),
    body: payload,
    secret: init.secret ?? secret,
  });
  return new Request('https://receiver.example/callbacks', {
    method: 'POST',
    body: payload,
    headers: { 'content-type': 'application/json', ...headers, ...init.headers },
  });
}

describe('verifyRequest', () => {
  it('returns the event of a signed Request', async () => {
    expect(await verifyRequest(await signedRequest(), { secret })).toEqual(event);
  });

  it('refuses a Request signed with another secret', async () => {
    const request = await signedRequest({ secret: generateCallbackSecret() });
    await expect(verifyRequest(request, { secret })).rejects.toMatchObject({
      reason: 'invalid_signature',
    });
  });
});

describe('createFetchHandler', () => {
  it('answers 204 and hands the event over', async () => {
    const seen: WebhookEvent[] = [];
    const handler = createFetchHandler({ secret }, (received) => {
      seen.push(received);
    });
    const response = await handler(await signedRequest());
    expect(response.status).toBe(204);
    expect(seen).toEqual([event]);
  });

  it("answers with onEvent's own Response", async () => {
    const handler = createFetchHandler({ secret }, (received) =>
      Response.json(
        { got: received.type === 'budget.threshold' ? received.data.scope : received.data.task_id },
        { status: 202 },
      ),
    );
    const response = await handler(await signedRequest());
    expect(response.status).toBe(202);
    expect(await response.json()).toEqual({ got: 'vt_2' });
  });

  it('answers 401 with a JSON reason for a bad signature, without calling onEvent', async () => {
    let calls = 0;
    const handler = createFetchHandler({ secret }, () => {
      calls++;
    });
    const response = await handler(await signedRequest({ secret: generateCallbackSecret() }));
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ error: { reason: 'invalid_signature' } });
    expect(calls).toBe(0);
  });

  it('answers 400 naming a missing header', async () => {
    const handler = createFetchHandler({ secret }, () => {});
    const request = new Request('https://receiver.example/callbacks', { method: 'POST', body });
    const response = await handler(request);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: {
        reason: 'missing_header',
        header: 'webhook-id',
        message: expect.stringContaining('webhook-id'),
      },
    });
  });

  it('answers 405 to anything but POST', async () => {
    const handler = createFetchHandler({ secret }, () => {});
    const response = await handler(new Request('https://receiver.example/callbacks'));
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
  });

  it('lets an error from onEvent propagate (so the framework answers 5xx and modelgate retries)', async () => {
    const handler = createFetchHandler({ secret }, () => {
      throw new Error('database down');
    });
    await expect(handler(await signedRequest())).rejects.toThrow('database down');
  });

  it('throws at creation for a malformed secret', () => {
    expect(() => createFetchHandler({ secret: 'whsec_***' }, () => {})).toThrow(
      CallbackVerificationError,
    );
  });
});
