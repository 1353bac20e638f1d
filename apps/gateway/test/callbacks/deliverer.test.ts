import { verifyCallback } from '@modelgate/callbacks';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { HostResolver } from '../../src/callbacks/address-guard.js';
import {
  createDeliverer,
  type Deliverer,
  type DeliverySettings,
} from '../../src/callbacks/deliverer.js';
import { listDeliveries } from '../../src/callbacks/deliveries.js';
import { enqueueCallback, NotFinalStatusError } from '../../src/callbacks/index.js';
import { getCallbackSecret, rotateCallbackSecret } from '../../src/callbacks/secrets.js';
import { createLogger } from '../../src/observability/logger.js';
import { eachDatabase, openTestDatabase, type TestDatabase } from '../support/index.js';
import { type Answer, type Receiver, startReceiver } from './receiver.js';
import { fastSettings, finishedTask, insertKey } from './support.js';

const log = createLogger({ level: 'error', write: () => {} });

describe.each(eachDatabase())('callback outbox and deliverer on $name', (target) => {
  let h: TestDatabase;
  let keyId: number;
  const open: Array<Receiver | Deliverer> = [];

  beforeAll(async () => {
    h = await openTestDatabase(target);
    keyId = await insertKey(h.db);
  });
  afterAll(() => h?.close());
  afterEach(async () => {
    for (const item of open.splice(0)) {
      if ('requests' in item) await item.close();
      else await item.stop();
    }
  });

  async function receiver(answer?: (index: number) => Answer): Promise<Receiver> {
    const r = await startReceiver(answer);
    open.push(r);
    return r;
  }

  function deliverer(
    settings: Partial<DeliverySettings> & { allowPrivate?: boolean } = {},
    resolve?: HostResolver,
  ): Deliverer {
    const { allowPrivate = true, ...rest } = settings;
    const d = createDeliverer({
      db: h.db,
      log,
      settings: fastSettings(rest),
      guard: { allowPrivate, ...(resolve ? { resolve } : {}) },
    });
    open.push(d);
    return d;
  }

  async function enqueue(
    url: string,
    taskId: string,
    status: 'completed' | 'failed' | 'cancelled' = 'completed',
  ) {
    return h.db.transaction().execute((trx) =>
      enqueueCallback(trx, {
        taskId,
        keyId,
        callbackUrl: url,
        task: finishedTask(taskId, status),
      }),
    );
  }

  async function deliveryRow(id: string) {
    return h.db
      .selectFrom('callback_deliveries')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
  }

  async function attemptsOf(id: string) {
    return h.db
      .selectFrom('callback_attempts')
      .selectAll()
      .where('delivery_id', '=', id)
      .orderBy('id')
      .execute();
  }

  /** Runs the deliverer until the row leaves `pending` (event-driven by the receiver where possible). */
  async function settle(d: Deliverer, id: string): Promise<void> {
    for (let round = 0; round < 200; round++) {
      if ((await deliveryRow(id)).status !== 'pending') return;
      const claimed = await d.runOnce();
      if (claimed === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error(`delivery ${id} still pending`);
  }

  it('retries a receiver that fails twice, then delivers: three requests, one webhook-id, all verifiable', async () => {
    const r = await receiver((index) => (index < 2 ? 503 : 200));
    const { id, eventType } = await enqueue(r.url, 'vt_retry', 'completed');
    expect(id).toMatch(/^msg_[A-Za-z0-9]{24}$/);
    expect(eventType).toBe('video.task.completed');
    const d = deliverer();
    d.start();
    const requests = await r.waitFor(3);
    await settle(d, id);

    expect(requests).toHaveLength(3);
    expect(new Set(requests.map((req) => req.headers['webhook-id']))).toEqual(new Set([id]));
    const { secret } = await getCallbackSecret(h.db, keyId);
    for (const request of requests) {
      expect(request.method).toBe('POST');
      expect(request.headers['content-type']).toBe('application/json');
      const event = await verifyCallback({ body: request.body, headers: request.headers, secret });
      if (event.type !== 'video.task.completed') throw new Error(`a ${event.type} event`);
      expect(event.data.task_id).toBe('vt_retry');
      expect(event.data.video?.url).toContain('vt_retry');
    }
    // The body is frozen at enqueue: every attempt sends the same bytes.
    expect(new Set(requests.map((req) => req.body)).size).toBe(1);

    const row = await deliveryRow(id);
    expect(row.status).toBe('delivered');
    expect(row.attempt_count).toBe(3);
    expect(row.next_attempt_at_ms).toBeNull();
    expect(row.delivered_at_ms).not.toBeNull();
    const attempts = await attemptsOf(id);
    expect(attempts.map((a) => a.status_code)).toEqual([503, 503, 200]);
    expect(attempts.every((a) => a.error === null && a.latency_ms >= 0)).toBe(true);
  });

  it('marks a delivery failed after the last attempt of the schedule', async () => {
    const r = await receiver(() => 500);
    const { id } = await enqueue(r.url, 'vt_exhaust', 'failed');
    const d = deliverer({ retryScheduleMs: [10, 10, 10] });
    await settle(d, id);
    const row = await deliveryRow(id);
    expect(row.status).toBe('failed');
    expect(row.attempt_count).toBe(4);
    expect(row.next_attempt_at_ms).toBeNull();
    expect(r.requests).toHaveLength(4);
    expect((await attemptsOf(id)).map((a) => a.status_code)).toEqual([500, 500, 500, 500]);
  });

  it('records a timeout and a refused connection as errors without a status', async () => {
    const hanging = await receiver(() => 'hang');
    const slow = await enqueue(hanging.url, 'vt_timeout');
    const d = deliverer({ timeoutMs: 150, retryScheduleMs: [] });
    await settle(d, slow.id);
    expect(await attemptsOf(slow.id)).toMatchObject([{ status_code: null, error: 'timeout' }]);

    const gone = await startReceiver();
    const goneUrl = gone.url;
    await gone.close();
    const refused = await enqueue(goneUrl, 'vt_refused');
    await settle(d, refused.id);
    expect(await attemptsOf(refused.id)).toMatchObject([
      { status_code: null, error: 'connection_error' },
    ]);
    expect((await deliveryRow(refused.id)).status).toBe('failed');
  });

  it('reads no more than a few KiB of an answer, then hangs up', async () => {
    const r = await receiver(() => 'endless');
    const { id } = await enqueue(r.url, 'vt_endless');
    // A generous timeout: only the byte cap can end this attempt early.
    await settle(deliverer({ timeoutMs: 60_000 }), id);
    expect(await attemptsOf(id)).toMatchObject([{ status_code: 200, error: null }]);
    expect((await deliveryRow(id)).status).toBe('delivered');
    for (let i = 0; i < 100 && r.endlessBytesWritten.length === 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    // The receiver stopped at the hang-up, far below what it would write to a reader that drains.
    expect(r.endlessBytesWritten[0]).toBeLessThan(16 * 1024 * 1024);
  });

  it('does not follow redirects: a 3xx is a failed attempt and the target is never contacted', async () => {
    const inside = await receiver(() => 200);
    const redirecting = await receiver(() => ({ redirect: inside.url }));
    const { id } = await enqueue(redirecting.url, 'vt_redirect');
    const d = deliverer({ retryScheduleMs: [10] });
    await settle(d, id);
    expect((await attemptsOf(id)).map((a) => a.status_code)).toEqual([302, 302]);
    expect((await deliveryRow(id)).status).toBe('failed');
    expect(inside.requests).toHaveLength(0);

    // Same with the metadata address as the redirect target and the guard on.
    const toMetadata = await receiver(() => ({
      redirect: 'http://169.254.169.254/latest/meta-data/',
    }));
    const second = await enqueue(toMetadata.url, 'vt_redirect_md');
    await settle(deliverer({ retryScheduleMs: [] }), second.id);
    expect((await attemptsOf(second.id)).map((a) => a.status_code)).toEqual([302]);
  });

  it('checks the address again at delivery: loopback is refused with the allow flag off', async () => {
    const r = await receiver(() => 200);
    const { id } = await enqueue(r.url, 'vt_guard');
    const d = deliverer({ allowPrivate: false, retryScheduleMs: [] });
    await settle(d, id);
    expect(await attemptsOf(id)).toMatchObject([{ status_code: null, error: 'address_refused' }]);
    expect(r.requests).toHaveLength(0);
  });

  it('refuses at delivery a host name that now resolves to a private address (DNS rebinding)', async () => {
    const r = await receiver(() => 200);
    const rebinding: HostResolver = async () => [
      { address: '93.184.215.14', family: 4 },
      { address: '127.0.0.1', family: 4 },
    ];
    const { id } = await enqueue(`http://hooks.rebind.test:${r.port}/cb`, 'vt_rebind');
    const d = deliverer({ allowPrivate: false, retryScheduleMs: [] }, rebinding);
    await settle(d, id);
    expect(await attemptsOf(id)).toMatchObject([{ error: 'address_refused' }]);
    expect(r.requests).toHaveLength(0);
  });

  it('connects to the address it checked, keeping the host name in the Host header', async () => {
    const r = await receiver(() => 200);
    let lookups = 0;
    const resolve: HostResolver = async (hostname) => {
      lookups++;
      expect(hostname).toBe('receiver.callbacks.test');
      return [{ address: '127.0.0.1', family: 4 }];
    };
    const { id } = await enqueue(`http://receiver.callbacks.test:${r.port}/cb?x=1`, 'vt_pinned');
    await settle(deliverer({}, resolve), id);
    expect((await deliveryRow(id)).status).toBe('delivered');
    expect(lookups).toBe(1);
    expect(r.requests[0]?.headers.host).toBe(`receiver.callbacks.test:${r.port}`);
    expect(r.requests[0]?.url).toBe('/cb?x=1');
  });

  it('signs with the previous secret too during a rotation grace period', async () => {
    const otherKey = await insertKey(h.db, 'rotating');
    const before = await getCallbackSecret(h.db, otherKey);
    const after = await rotateCallbackSecret(h.db, otherKey, 3600);
    expect(after.secret).not.toBe(before.secret);
    expect(after.previous_secret_expires_at).toBeGreaterThan(Date.now() / 1000 + 3500);
    const r = await receiver(() => 200);
    const { id } = await h.db.transaction().execute((trx) =>
      enqueueCallback(trx, {
        taskId: 'vt_rotate',
        keyId: otherKey,
        callbackUrl: r.url,
        task: finishedTask('vt_rotate', 'cancelled'),
      }),
    );
    await settle(deliverer(), id);
    const [request] = r.requests;
    expect(String(request?.headers['webhook-signature']).split(' ')).toHaveLength(2);
    for (const secret of [before.secret, after.secret]) {
      const event = await verifyCallback({
        body: request!.body,
        headers: request!.headers,
        secret,
      });
      expect(event.type).toBe('video.task.cancelled');
    }

    // Rotating with no grace period drops the old secret at once.
    const immediate = await rotateCallbackSecret(h.db, otherKey, 0);
    expect(immediate.previous_secret_expires_at).toBeNull();
  });

  it('shares rows between deliverer instances: each delivery is sent once', async () => {
    const r = await receiver(() => 200);
    const ids: string[] = [];
    for (let i = 0; i < 8; i++) ids.push((await enqueue(r.url, `vt_many_${i}`)).id);
    const [a, b] = [deliverer({ concurrency: 3 }), deliverer({ concurrency: 3 })];
    a.start();
    b.start();
    await r.waitFor(8);
    for (const id of ids) {
      for (let round = 0; round < 100 && (await deliveryRow(id)).status === 'pending'; round++) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      expect((await deliveryRow(id)).status).toBe('delivered');
    }
    const perId = new Map<string, number>();
    for (const req of r.requests) {
      const id = String(req.headers['webhook-id']);
      perId.set(id, (perId.get(id) ?? 0) + 1);
    }
    expect([...perId.keys()].sort()).toEqual([...ids].sort());
    expect([...perId.values()].every((count) => count === 1)).toBe(true);
  });

  it('takes over a row whose claim expired (an instance died mid-attempt)', async () => {
    const r = await receiver(() => 200);
    const { id } = await enqueue(r.url, 'vt_lease');
    // Another instance claimed it and vanished: its lease is still running.
    await h.db
      .updateTable('callback_deliveries')
      .set({ lease_until_ms: Date.now() + 60_000, claim_token: 'dead-instance' })
      .where('id', '=', id)
      .execute();
    const d = deliverer();
    expect(await d.runOnce()).toBe(0);
    await h.db
      .updateTable('callback_deliveries')
      .set({ lease_until_ms: Date.now() - 1 })
      .where('id', '=', id)
      .execute();
    await settle(d, id);
    expect((await deliveryRow(id)).status).toBe('delivered');
    expect(r.requests).toHaveLength(1);
  });

  it('refuses to enqueue for a status that is not final', async () => {
    const task = { ...finishedTask('vt_running', 'completed'), status: 'in_progress' as const };
    await expect(
      h.db.transaction().execute((trx) =>
        enqueueCallback(trx, {
          taskId: 'vt_running',
          keyId,
          callbackUrl: 'http://x.test/',
          task,
        }),
      ),
    ).rejects.toBeInstanceOf(NotFinalStatusError);
  });

  it('writes nothing when the caller rolls its transaction back', async () => {
    let id = '';
    await expect(
      h.db.transaction().execute(async (trx) => {
        id = (
          await enqueueCallback(trx, {
            taskId: 'vt_rollback',
            keyId,
            callbackUrl: 'http://x.test/',
            task: finishedTask('vt_rollback', 'failed'),
          })
        ).id;
        throw new Error('final transition failed');
      }),
    ).rejects.toThrow('final transition failed');
    expect(id).not.toBe('');
    expect(
      await h.db.selectFrom('callback_deliveries').select('id').where('id', '=', id).execute(),
    ).toEqual([]);
  });

  it('lists deliveries newest first with attempts, a cursor and a task filter', async () => {
    const listKey = await insertKey(h.db, 'lister');
    const r = await receiver((index) => (index === 0 ? 503 : 200));
    const made: string[] = [];
    const d = deliverer();
    // One at a time, so the first one meets the receiver's single 503.
    for (const taskId of ['vt_l1', 'vt_l2', 'vt_l3']) {
      const { id } = await h.db.transaction().execute((trx) =>
        enqueueCallback(trx, {
          taskId,
          keyId: listKey,
          callbackUrl: r.url,
          task: finishedTask(taskId, 'completed'),
        }),
      );
      made.push(id);
      await settle(d, id);
    }

    const first = await listDeliveries(h.db, listKey, { limit: 2 });
    expect(first.data.map((x) => x.id)).toEqual([made[2], made[1]]);
    expect(first.has_more).toBe(true);
    expect(first.next_cursor).toBe(made[1]);
    const second = await listDeliveries(h.db, listKey, { limit: 2, after: first.next_cursor });
    expect(second.data.map((x) => x.id)).toEqual([made[0]]);
    expect(second.has_more).toBe(false);
    expect(second.next_cursor).toBeNull();

    const oldest = second.data[0]!;
    expect(oldest).toMatchObject({
      object: 'callback.delivery',
      task_id: 'vt_l1',
      event_type: 'video.task.completed',
      url: r.url,
      status: 'delivered',
      next_attempt_at: null,
    });
    expect(oldest.attempts.map((a) => a.status_code)).toEqual([503, 200]);
    expect(oldest.delivered_at).toBeGreaterThanOrEqual(oldest.created_at);

    const filtered = await listDeliveries(h.db, listKey, { taskId: 'vt_l2' });
    expect(filtered.data.map((x) => x.id)).toEqual([made[1]]);
    // Another key's deliveries are invisible, and its ids are not cursors here.
    expect((await listDeliveries(h.db, keyId, { taskId: 'vt_l2' })).data).toEqual([]);
    await expect(listDeliveries(h.db, keyId, { after: made[0] })).rejects.toMatchObject({
      status: 400,
      param: 'after',
    });
  });
});
