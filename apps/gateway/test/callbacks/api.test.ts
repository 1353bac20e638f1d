// The callbacks API and the whole path end to end: a video task with callback_url finishes in the task
// engine (provider simulator), the outbox row is written in its final transaction, and the deliverer
// POSTs a signed event the receiver verifies with @modelgate/callbacks.
import { verifyCallback } from '@modelgate/callbacks';
import type { CallbackDeliveryList, CallbackSecret, VideoTask } from '@modelgate/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/index.js';
import { startVideoGateway, type VideoTestGateway, waitFinal } from '../support/video-gateway.js';
import { type Receiver, startReceiver } from './receiver.js';

describe('callbacks API and delivery end to end', () => {
  let gw: VideoTestGateway;
  let key: string;
  let callbackSecret: string;
  const receivers: Receiver[] = [];

  beforeAll(async () => {
    gw = await startVideoGateway({
      env: {
        MODELGATE_CALLBACK_RETRY_SCHEDULE: '40ms,40ms,40ms',
        MODELGATE_CALLBACK_POLL_INTERVAL: '20ms',
      },
    });
    const res = await gw.fetch('/v1/token', {
      method: 'POST',
      key: gw.adminKey,
      json: { name: 'callbacks', quota: 500_000_000 },
    });
    expect(res.status).toBe(200);
    const token = (await res.json()) as { key: string; callback_secret: string };
    key = token.key;
    callbackSecret = token.callback_secret;
  });
  afterAll(async () => {
    for (const r of receivers) await r.close();
    await gw?.close();
  });

  async function receiver(answer?: Parameters<typeof startReceiver>[0]) {
    const r = await startReceiver(answer);
    receivers.push(r);
    return r;
  }

  async function deliveriesOf(taskId: string): Promise<CallbackDeliveryList> {
    const res = await gw.fetch(`/v1/callbacks/deliveries?task_id=${taskId}`, { key });
    expect(res.status).toBe(200);
    return (await res.json()) as CallbackDeliveryList;
  }

  it('returns the callback secret given at token creation', async () => {
    expect(callbackSecret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const res = await gw.fetch('/v1/callbacks/secret', { key });
    expect(res.status).toBe(200);
    const body = (await res.json()) as CallbackSecret;
    expect(body).toEqual({
      secret: callbackSecret,
      previous_secret_expires_at: null,
      created_at: expect.any(Number),
    });
  });

  it('delivers a finished task to a receiver that fails twice: three POSTs, one webhook-id, verified', async () => {
    const r = await receiver((index) => (index < 2 ? 503 : 204));
    const submit = await gw.fetch('/v1/video/generations', {
      method: 'POST',
      key,
      json: { model: 'kling-v3', prompt: 'a lighthouse at dusk', callback_url: r.url },
    });
    expect(submit.status).toBe(200);
    const { task_id: taskId } = (await submit.json()) as { task_id: string };
    const requests = await r.waitFor(3);
    const finalTask = (await waitFinal(gw, key, taskId)) as VideoTask;

    expect(new Set(requests.map((req) => req.headers['webhook-id'])).size).toBe(1);
    for (const request of requests) {
      const event = await verifyCallback({
        body: request.body,
        headers: request.headers,
        secret: callbackSecret,
      });
      expect(event.type).toBe(`video.task.${finalTask.status}`);
      expect(event.data).toEqual(finalTask);
      expect(event.timestamp).toBe(finalTask.completed_at);
    }

    let list = await deliveriesOf(taskId);
    for (let i = 0; i < 50 && list.data[0]?.status !== 'delivered'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      list = await deliveriesOf(taskId);
    }
    expect(list.data).toHaveLength(1);
    expect(list.data[0]).toMatchObject({
      id: requests[0]!.headers['webhook-id'],
      object: 'callback.delivery',
      task_id: taskId,
      event_type: `video.task.${finalTask.status}`,
      url: r.url,
      status: 'delivered',
      next_attempt_at: null,
    });
    expect(list.data[0]!.attempts.map((a) => a.status_code)).toEqual([503, 503, 204]);
  });

  it('sends video.task.cancelled for a cancelled task', async () => {
    const r = await receiver();
    const submit = await gw.fetch('/v1/video/generations', {
      method: 'POST',
      key,
      json: { model: 'luma-ray-2', prompt: 'waves', callback_url: r.url },
    });
    const { task_id: taskId } = (await submit.json()) as { task_id: string };
    const cancel = await gw.fetch(`/v1/video/generations/${taskId}/cancel`, {
      method: 'POST',
      key,
    });
    expect(cancel.status).toBe(200);
    const [request] = await r.waitFor(1);
    const event = await verifyCallback({
      body: request!.body,
      headers: request!.headers,
      secret: callbackSecret,
    });
    expect(event.type).toBe('video.task.cancelled');
    expect(event.data).toMatchObject({ task_id: taskId, status: 'cancelled' });
  });

  it('rotates the secret: the new one is returned and the old one keeps signing for the grace period', async () => {
    const rotate = await gw.fetch('/v1/callbacks/secret', {
      method: 'POST',
      key,
      json: { grace_period_seconds: 120 },
    });
    expect(rotate.status).toBe(200);
    const rotated = (await rotate.json()) as CallbackSecret;
    expect(rotated.secret).not.toBe(callbackSecret);
    expect(rotated.previous_secret_expires_at).toBeGreaterThanOrEqual(
      Math.floor(Date.now() / 1000) + 110,
    );

    const r = await receiver();
    const submit = await gw.fetch('/v1/video/generations', {
      method: 'POST',
      key,
      json: { model: 'kling-v3', prompt: 'rain', callback_url: r.url },
    });
    expect(submit.status).toBe(200);
    const [request] = await r.waitFor(1);
    for (const secret of [callbackSecret, rotated.secret]) {
      await expect(
        verifyCallback({ body: request!.body, headers: request!.headers, secret }),
      ).resolves.toBeTruthy();
    }

    const again = await gw.fetch('/v1/callbacks/secret', { method: 'POST', key });
    const defaulted = (await again.json()) as CallbackSecret;
    expect(defaulted.previous_secret_expires_at).toBeGreaterThanOrEqual(
      Math.floor(Date.now() / 1000) + 86_000,
    );
    const read = (await (await gw.fetch('/v1/callbacks/secret', { key })).json()) as CallbackSecret;
    expect(read.secret).toBe(defaulted.secret);
    callbackSecret = defaulted.secret;
  });

  it('refuses bad rotation bodies and bad list parameters, naming the parameter', async () => {
    const cases: Array<[string, RequestInit & { json?: unknown }, string]> = [
      [
        '/v1/callbacks/secret',
        { method: 'POST', json: { grace_period_seconds: -1 } },
        'grace_period_seconds',
      ],
      [
        '/v1/callbacks/secret',
        { method: 'POST', json: { grace_period_seconds: 604_801 } },
        'grace_period_seconds',
      ],
      [
        '/v1/callbacks/secret',
        { method: 'POST', json: { grace_period_seconds: 'soon' } },
        'grace_period_seconds',
      ],
      ['/v1/callbacks/secret', { method: 'POST', json: { grace: 5 } }, 'grace'],
      ['/v1/callbacks/deliveries?limit=0', {}, 'limit'],
      ['/v1/callbacks/deliveries?limit=abc', {}, 'limit'],
      ['/v1/callbacks/deliveries?after=msg_unknown', {}, 'after'],
    ];
    for (const [path, init, param] of cases) {
      const res = await gw.fetch(path, { ...init, key });
      expect(res.status, path).toBe(400);
      const body = (await res.json()) as { error: { type: string; param: string } };
      expect(body.error.type).toBe('invalid_request_error');
      expect(body.error.param).toBe(param);
    }
  });

  it('redelivers a failed callback on request: same webhook-id and body, a fresh schedule, all attempts kept', async () => {
    let failing = true;
    const r = await receiver(() => (failing ? 500 : 204));
    const submit = await gw.fetch('/v1/video/generations', {
      method: 'POST',
      key,
      json: { model: 'kling-v3', prompt: 'a harbour at night', callback_url: r.url },
    });
    const { task_id: taskId } = (await submit.json()) as { task_id: string };
    // The schedule (40 ms × 3) runs out after four attempts.
    await r.waitFor(4);
    let list = await deliveriesOf(taskId);
    for (let i = 0; i < 50 && list.data[0]?.status !== 'failed'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      list = await deliveriesOf(taskId);
    }
    const failed = list.data[0]!;
    expect(failed.status).toBe('failed');
    expect(failed.attempts).toHaveLength(4);

    failing = false;
    const redeliver = (id: string, as = key) =>
      gw.fetch(`/v1/callbacks/deliveries/${id}/redeliver`, { method: 'POST', key: as });
    const res = await redeliver(failed.id);
    expect(res.status).toBe(200);
    const pending = (await res.json()) as CallbackDeliveryList['data'][number];
    expect(pending).toMatchObject({ id: failed.id, status: 'pending', delivered_at: null });
    expect(pending.attempts).toHaveLength(4);

    const requests = await r.waitFor(5);
    expect(requests[4]!.headers['webhook-id']).toBe(failed.id);
    expect(requests[4]!.body).toBe(requests[0]!.body);
    await verifyCallback({
      body: requests[4]!.body,
      headers: requests[4]!.headers,
      secret: callbackSecret,
    });
    for (let i = 0; i < 50 && list.data[0]?.status !== 'delivered'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      list = await deliveriesOf(taskId);
    }
    expect(list.data[0]!.status).toBe('delivered');
    expect(list.data[0]!.attempts.map((a) => a.status_code)).toEqual([500, 500, 500, 500, 204]);

    // Another key cannot see it; an unknown id is a 404; a malformed one a 400 naming it.
    const other = await gw.createKey({ quota: 1_000_000 });
    for (const [id, as, status, code] of [
      [failed.id, other.key, 404, 'delivery_not_found'],
      ['msg_nope', key, 404, 'delivery_not_found'],
      ['not-a-delivery', key, 400, undefined],
    ] as const) {
      const refused = await redeliver(id, as);
      expect(refused.status).toBe(status);
      const { error } = (await refused.json()) as { error: { code: string; param: string } };
      expect(error.param).toBe('delivery_id');
      if (code) expect(error.code).toBe(code);
    }
  });

  it('refuses to redeliver a delivery that is still pending (409 delivery_pending)', async () => {
    const r = await receiver(() => 'hang');
    const submit = await gw.fetch('/v1/video/generations', {
      method: 'POST',
      key,
      json: { model: 'kling-v3', prompt: 'a slow receiver', callback_url: r.url },
    });
    const { task_id: taskId } = (await submit.json()) as { task_id: string };
    await r.waitFor(1);
    const [delivery] = (await deliveriesOf(taskId)).data;
    expect(delivery!.status).toBe('pending');
    const res = await gw.fetch(`/v1/callbacks/deliveries/${delivery!.id}/redeliver`, {
      method: 'POST',
      key,
    });
    expect(res.status).toBe(409);
    const { error } = (await res.json()) as { error: { code: string; param: string } };
    expect(error).toMatchObject({ code: 'delivery_pending', param: 'delivery_id' });
  });

  it("lets an administrator list another key's video tasks and deliveries with key_id; a normal key may not", async () => {
    const owner = await gw.createKey({ quota: 500_000_000 });
    const r = await receiver();
    const submit = await gw.fetch('/v1/video/generations', {
      method: 'POST',
      key: owner.key,
      json: { model: 'kling-v3', prompt: 'a windmill', callback_url: r.url },
    });
    const { task_id: taskId } = (await submit.json()) as { task_id: string };
    await r.waitFor(1);
    const listed = async (path: string, as: string) => {
      const res = await gw.fetch(path, { key: as });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };
    const tasks = await listed(`/v1/video/generations?key_id=${owner.id}`, gw.adminKey);
    expect(tasks.status).toBe(200);
    expect((tasks.body.data as VideoTask[]).map((t) => t.task_id)).toEqual([taskId]);
    const deliveries = await listed(`/v1/callbacks/deliveries?key_id=${owner.id}`, gw.adminKey);
    expect((deliveries.body.data as { task_id: string }[]).map((d) => d.task_id)).toEqual([taskId]);
    // Without key_id the administrator sees its own lists, which do not hold the task.
    const own = await listed('/v1/video/generations?limit=100', gw.adminKey);
    expect((own.body.data as VideoTask[]).map((t) => t.task_id)).not.toContain(taskId);
    // The owner may name itself; another normal key may not name the owner.
    expect((await listed(`/v1/video/generations?key_id=${owner.id}`, owner.key)).status).toBe(200);
    for (const path of ['/v1/video/generations', '/v1/callbacks/deliveries']) {
      const refused = await listed(`${path}?key_id=${owner.id}`, key);
      expect(refused.status).toBe(403);
      expect((refused.body.error as { code: string }).code).toBe('admin_key_required');
    }
  });

  it("keeps one key's deliveries and secret away from another", async () => {
    const other = await gw.createKey({ quota: 1_000_000 });
    const list = (await (
      await gw.fetch('/v1/callbacks/deliveries', { key: other.key })
    ).json()) as CallbackDeliveryList;
    expect(list).toEqual({ object: 'list', data: [], has_more: false, next_cursor: null });
    const secret = (await (
      await gw.fetch('/v1/callbacks/secret', { key: other.key })
    ).json()) as CallbackSecret;
    expect(secret.secret).toMatch(/^whsec_/);
    expect(secret.secret).not.toBe(callbackSecret);
    expect((await gw.fetch('/v1/callbacks/secret')).status).toBe(401);
  });
});

describe('submit-time SSRF guard with MODELGATE_CALLBACK_ALLOW_PRIVATE off', () => {
  let gw: TestGateway;
  let key: string;
  beforeAll(async () => {
    gw = await startTestGateway({ simulator: false });
    ({ key } = await gw.createKey({ quota: 500_000_000 }));
  });
  afterAll(() => gw?.close());

  it.each([
    'http://127.0.0.1:9/hook',
    'http://10.0.0.1/hook',
    'http://169.254.169.254/latest/meta-data/',
    'http://[::1]:9/hook',
    'http://localhost:9/hook',
    'ftp://93.184.215.14/hook',
  ])('refuses callback_url %s with 400 param callback_url', async (url) => {
    const res = await gw.fetch('/v1/video/generations', {
      method: 'POST',
      key,
      json: { model: 'kling-v3', prompt: 'x', callback_url: url },
    });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { type: string; param: string; code: string } };
    expect(body.error).toMatchObject({ type: 'invalid_request_error', param: 'callback_url' });
    // Video's own URL validation may refuse a non-http(s) scheme first; either way, param callback_url.
    expect(body.error.code).toMatch(
      /^(callback_url_not_allowed|invalid_callback_url|invalid_value)$/,
    );
  });
});
