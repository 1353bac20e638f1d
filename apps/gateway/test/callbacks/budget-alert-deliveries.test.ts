// The budget alerts in the delivery log: no key owns them, so an administrator lists them with
// `kind=budget_alert` (a normal key: 403; with `key_id`: 400) and sends one again; a key's own list
// never shows them.
import { verifyCallback } from '@modelgate/callbacks';
import { zCallbackDelivery, zCallbackDeliveryList } from '@modelgate/core/zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, expectOk } from '../contract/support.js';
import { startTestGateway, type TestGateway } from '../support/index.js';
import { type Receiver, startReceiver } from './receiver.js';

const ALERT_SECRET = `whsec_${Buffer.from('budget-alert-deliveries-test-32b').toString('base64')}`;

describe('budget alert deliveries', () => {
  let gw: TestGateway;
  let receiver: Receiver;
  let member: { key: string; id: number };

  beforeAll(async () => {
    receiver = await startReceiver();
    gw = await startTestGateway({
      env: {
        MODELGATE_CALLBACK_ALLOW_PRIVATE: '1',
        MODELGATE_CALLBACK_POLL_INTERVAL: '20ms',
        MODELGATE_BUDGET_ALERT_SECRET: ALERT_SECRET,
      },
    });
    const team = (await (
      await gw.fetch('/v1/teams', {
        method: 'POST',
        key: gw.adminKey,
        json: { name: 'alerted', alert_url: receiver.url, budget: { amount: 1, period: 'day' } },
      })
    ).json()) as { id: number };
    member = await gw.createKey({ name: 'member', teamId: team.id });
    // The first request spends past the team's budget of one unit: its 100 % alert.
    for (let i = 0; i < 2; i++) {
      await gw.fetch('/v1/chat/completions', {
        method: 'POST',
        key: member.key,
        json: { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }], max_tokens: 8 },
      });
    }
    await receiver.waitFor(1, 10_000);
  });
  afterAll(async () => {
    await gw?.close();
    await receiver?.close();
  });

  const alertList = async () =>
    expectOk(
      await gw.fetch('/v1/callbacks/deliveries?kind=budget_alert', { key: gw.adminKey }),
      'GET /v1/callbacks/deliveries',
      zCallbackDeliveryList,
    );

  it('lists the alerts for an administrator, delivered, and signed as received', async () => {
    const list = await alertList();
    expect(list.data.length).toBeGreaterThanOrEqual(1);
    for (const delivery of list.data) {
      expect(delivery.status).toBe('delivered');
      expect(delivery.url).toBe(receiver.url);
    }
    const [first] = receiver.requests;
    const event = await verifyCallback({
      body: first!.body,
      headers: first!.headers as Record<string, string>,
      secret: ALERT_SECRET,
    });
    expect(event.type).toBe('budget.threshold');
    expect(list.data.map((d) => d.id)).toContain(first!.headers['webhook-id']);
  });

  it("keeps them out of a key's own list, and refuses the wrong asker", async () => {
    const own = await expectOk(
      await gw.fetch('/v1/callbacks/deliveries', { key: member.key }),
      'GET /v1/callbacks/deliveries',
      zCallbackDeliveryList,
    );
    expect(own.data).toEqual([]);
    await expectError(
      await gw.fetch('/v1/callbacks/deliveries?kind=budget_alert', { key: member.key }),
      'GET /v1/callbacks/deliveries',
      { status: 403, code: 'admin_key_required' },
    );
    await expectError(
      await gw.fetch(`/v1/callbacks/deliveries?kind=budget_alert&key_id=${member.id}`, {
        key: gw.adminKey,
      }),
      'GET /v1/callbacks/deliveries',
      { status: 400, code: 'invalid_value', param: 'key_id' },
    );
  });

  it('sends an alert again for an administrator only', async () => {
    const [delivery] = (await alertList()).data;
    const path = `/v1/callbacks/deliveries/${delivery!.id}/redeliver`;
    await expectError(
      await gw.fetch(path, { method: 'POST', key: member.key }),
      'POST /v1/callbacks/deliveries/{delivery_id}/redeliver',
      { status: 404, code: 'delivery_not_found' },
    );
    const before = receiver.requests.length;
    const again = await expectOk(
      await gw.fetch(path, { method: 'POST', key: gw.adminKey }),
      'POST /v1/callbacks/deliveries/{delivery_id}/redeliver',
      zCallbackDelivery,
    );
    expect(again.id).toBe(delivery!.id);
    const got = await receiver.waitFor(before + 1, 10_000);
    expect(got.at(-1)!.headers['webhook-id']).toBe(delivery!.id);
  });
});
