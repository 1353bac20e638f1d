import { Webhook } from 'standardwebhooks';
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  CallbackVerificationError,
  type CallbackVerificationReason,
  generateCallbackSecret,
  signCallback,
  verifyCallback,
  type WebhookEventType,
} from '../src/index.js';

// Known-answer vector from the Standard Webhooks reference (docs/design.md#callbacks).
const VECTOR = {
  secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  id: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
  timestamp: 1614265330,
  body: '{"test": 2432232314}',
  signature: 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
};

const event = {
  type: 'video.task.completed',
  timestamp: 1_700_000_000,
  data: { task_id: 'vt_1', object: 'video.task', status: 'completed' },
};
const body = JSON.stringify(event);
const nowSeconds = () => Math.floor(Date.now() / 1000);

async function refusalOf(promise: Promise<unknown>): Promise<CallbackVerificationError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(CallbackVerificationError);
  return error as CallbackVerificationError;
}

async function expectReason(promise: Promise<unknown>, reason: CallbackVerificationReason) {
  const error = await refusalOf(promise);
  expect(error.reason).toBe(reason);
  return error;
}

describe('signCallback', () => {
  it('produces the known-answer signature', async () => {
    const headers = await signCallback({
      id: VECTOR.id,
      timestamp: VECTOR.timestamp,
      body: VECTOR.body,
      secret: VECTOR.secret,
    });
    expect(headers).toEqual({
      'webhook-id': VECTOR.id,
      'webhook-timestamp': String(VECTOR.timestamp),
      'webhook-signature': VECTOR.signature,
    });
  });

  it('signs byte bodies exactly like the same text, and accepts a Date', async () => {
    const fromBytes = await signCallback({
      id: VECTOR.id,
      timestamp: new Date(VECTOR.timestamp * 1000 + 999),
      body: new TextEncoder().encode(VECTOR.body),
      secret: VECTOR.secret,
    });
    expect(fromBytes['webhook-signature']).toBe(VECTOR.signature);
    expect(fromBytes['webhook-timestamp']).toBe(String(VECTOR.timestamp));
  });

  it('emits one space-separated entry per secret, in order', async () => {
    const other = generateCallbackSecret();
    const headers = await signCallback({
      id: VECTOR.id,
      timestamp: VECTOR.timestamp,
      body: VECTOR.body,
      secrets: [VECTOR.secret, other],
    });
    const entries = headers['webhook-signature'].split(' ');
    expect(entries).toHaveLength(2);
    expect(entries[0]).toBe(VECTOR.signature);
    expect(entries[1]).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(entries[1]).not.toBe(VECTOR.signature);
  });

  it('refuses a malformed secret', async () => {
    for (const secret of ['whsec_not base64!', 'whsec_', '']) {
      await expectReason(
        signCallback({ id: 'msg_1', timestamp: 1, body: '{}', secret }),
        'malformed_secret',
      );
    }
  });

  it('generates whsec_ secrets of 32 random bytes', () => {
    const first = generateCallbackSecret();
    expect(first).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(generateCallbackSecret()).not.toBe(first);
  });
});

describe('verifyCallback', () => {
  it('accepts the known-answer vector at its own time (then fails on the payload shape)', async () => {
    // The vector's body is not a callback event: the signature passes, the shape check refuses.
    const error = await expectReason(
      verifyCallback({
        body: VECTOR.body,
        headers: {
          'webhook-id': VECTOR.id,
          'webhook-timestamp': String(VECTOR.timestamp),
          'webhook-signature': VECTOR.signature,
        },
        secret: VECTOR.secret,
        now: new Date(VECTOR.timestamp * 1000),
      }),
      'invalid_payload',
    );
    expect(error.status).toBe(400);
  });

  it('returns the event for a body it signed (string, bytes, Headers, any header case)', async () => {
    const secret = generateCallbackSecret();
    const headers = await signCallback({ id: 'msg_a', timestamp: nowSeconds(), body, secret });
    expect(await verifyCallback({ body, headers, secret })).toEqual(event);

    const upper = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toUpperCase(), v]));
    const bytes = new TextEncoder().encode(body);
    expect(await verifyCallback({ body: bytes, headers: upper, secret })).toEqual(event);
    expect(await verifyCallback({ body, headers: new Headers(headers), secret })).toEqual(event);
  });

  it('returns a budget alert as the union member its type names', async () => {
    const alert = {
      type: 'budget.threshold',
      timestamp: 1_763_740_800,
      data: {
        scope: 'team',
        team_id: 3,
        threshold: 80,
        amount: 2,
        spent: 1.62,
        period: 'day',
        period_start: 1_763_683_200,
        resets_at: 1_763_769_600,
      },
    };
    const alertBody = JSON.stringify(alert);
    const secret = generateCallbackSecret();
    const headers = await signCallback({
      id: 'msg_alert',
      timestamp: nowSeconds(),
      body: alertBody,
      secret,
    });
    const verified = await verifyCallback({ body: alertBody, headers, secret });
    expect(verified).toEqual(alert);
    expectTypeOf<WebhookEventType>().toEqualTypeOf<
      'video.task.completed' | 'video.task.failed' | 'video.task.cancelled' | 'budget.threshold'
    >();
    // Narrowing on `type` gives each event's own `data` (checked by the typecheck).
    if (verified.type !== 'budget.threshold') throw new Error('expected a budget alert');
    expectTypeOf(verified.data.threshold).toEqualTypeOf<80 | 100>();
    expect(verified.data.threshold).toBe(80);
    const task = await verifyCallback({
      body,
      headers: await signCallback({ id: 'msg_task', timestamp: nowSeconds(), body, secret }),
      secret,
    });
    if (task.type === 'budget.threshold') throw new Error('expected a video task event');
    expectTypeOf(task.data.task_id).toEqualTypeOf<string>();
    expect(task.data.task_id).toBe('vt_1');
  });

  it('accepts when any v1 entry matches, and a secret list where any matches', async () => {
    const oldSecret = generateCallbackSecret();
    const newSecret = generateCallbackSecret();
    const headers = await signCallback({
      id: 'msg_rot',
      timestamp: nowSeconds(),
      body,
      secrets: [newSecret, oldSecret],
    });
    expect((await verifyCallback({ body, headers, secret: oldSecret })).type).toBe(event.type);
    expect((await verifyCallback({ body, headers, secret: newSecret })).type).toBe(event.type);

    const single = await signCallback({
      id: 'msg_one',
      timestamp: nowSeconds(),
      body,
      secret: oldSecret,
    });
    const unrelated = generateCallbackSecret();
    const withNoise = {
      ...single,
      'webhook-signature': `v1a,ZmFrZQ== v1,AAAA${'A'.repeat(40)} ${single['webhook-signature']}`,
    };
    expect((await verifyCallback({ body, headers: withNoise, secret: oldSecret })).type).toBe(
      event.type,
    );
    expect(
      (await verifyCallback({ body, headers: single, secret: [unrelated, oldSecret] })).type,
    ).toBe(event.type);
  });

  it('reads repeated signature headers as fetch joins them', async () => {
    const secret = generateCallbackSecret();
    const signed = await signCallback({ id: 'msg_rep', timestamp: nowSeconds(), body, secret });
    const headers = new Headers({
      'webhook-id': 'msg_rep',
      'webhook-timestamp': signed['webhook-timestamp'],
    });
    headers.append('webhook-signature', `v1,${btoa('x'.repeat(32))}`);
    headers.append('webhook-signature', signed['webhook-signature']);
    expect((await verifyCallback({ body, headers, secret })).type).toBe(event.type);
  });

  it('refuses a tampered body', async () => {
    const secret = generateCallbackSecret();
    const headers = await signCallback({ id: 'msg_t', timestamp: nowSeconds(), body, secret });
    const tampered = body.replace('completed', 'cancelled');
    const error = await expectReason(
      verifyCallback({ body: tampered, headers, secret }),
      'invalid_signature',
    );
    expect(error.status).toBe(401);
  });

  it('refuses a changed id (the id is signed too)', async () => {
    const secret = generateCallbackSecret();
    const headers = await signCallback({ id: 'msg_t', timestamp: nowSeconds(), body, secret });
    await expectReason(
      verifyCallback({ body, headers: { ...headers, 'webhook-id': 'msg_u' }, secret }),
      'invalid_signature',
    );
  });

  it('refuses the wrong secret', async () => {
    const headers = await signCallback({
      id: 'msg_w',
      timestamp: nowSeconds(),
      body,
      secret: generateCallbackSecret(),
    });
    await expectReason(
      verifyCallback({ body, headers, secret: generateCallbackSecret() }),
      'invalid_signature',
    );
  });

  it('refuses a replayed old timestamp and a future one, honouring the tolerance', async () => {
    const secret = generateCallbackSecret();
    const now = nowSeconds();
    const old = await signCallback({ id: 'msg_o', timestamp: now - 301, body, secret });
    await expectReason(verifyCallback({ body, headers: old, secret }), 'timestamp_too_old');
    expect((await verifyCallback({ body, headers: old, secret, toleranceSeconds: 600 })).type).toBe(
      event.type,
    );

    const future = await signCallback({ id: 'msg_f', timestamp: now + 301, body, secret });
    await expectReason(verifyCallback({ body, headers: future, secret }), 'timestamp_in_future');

    const vector = {
      'webhook-id': VECTOR.id,
      'webhook-timestamp': String(VECTOR.timestamp),
      'webhook-signature': VECTOR.signature,
    };
    await expectReason(
      verifyCallback({ body: VECTOR.body, headers: vector, secret: VECTOR.secret }),
      'timestamp_too_old',
    );
  });

  it('refuses each missing header, naming it', async () => {
    const secret = generateCallbackSecret();
    const headers = await signCallback({ id: 'msg_m', timestamp: nowSeconds(), body, secret });
    for (const name of ['webhook-id', 'webhook-timestamp', 'webhook-signature'] as const) {
      const partial: Record<string, string> = { ...headers };
      delete partial[name];
      const error = await expectReason(
        verifyCallback({ body, headers: partial, secret }),
        'missing_header',
      );
      expect(error.header).toBe(name);
      expect(error.status).toBe(400);
    }
  });

  it('refuses malformed headers', async () => {
    const secret = generateCallbackSecret();
    const headers = await signCallback({ id: 'msg_h', timestamp: nowSeconds(), body, secret });
    const badTime = await expectReason(
      verifyCallback({ body, headers: { ...headers, 'webhook-timestamp': '2024-01-01' }, secret }),
      'malformed_header',
    );
    expect(badTime.header).toBe('webhook-timestamp');
    const badSignature = await expectReason(
      verifyCallback({ body, headers: { ...headers, 'webhook-signature': 'garbage' }, secret }),
      'malformed_header',
    );
    expect(badSignature.header).toBe('webhook-signature');
  });

  it('refuses a malformed secret before looking at the request', async () => {
    const error = await expectReason(
      verifyCallback({ body, headers: {}, secret: 'whsec_%%%' }),
      'malformed_secret',
    );
    expect(error.status).toBe(500);
  });

  it('refuses a signed body that is not a callback event', async () => {
    const secret = generateCallbackSecret();
    for (const text of ['not json', '[]', '{"type":"x"}', '\u00ff']) {
      const headers = await signCallback({
        id: 'msg_p',
        timestamp: nowSeconds(),
        body: text,
        secret,
      });
      await expectReason(verifyCallback({ body: text, headers, secret }), 'invalid_payload');
    }
    // Invalid UTF-8 bytes with a valid signature over those bytes.
    const bytes = new Uint8Array([0x7b, 0xff, 0x7d]);
    const headers = await signCallback({
      id: 'msg_b',
      timestamp: nowSeconds(),
      body: bytes,
      secret,
    });
    await expectReason(verifyCallback({ body: bytes, headers, secret }), 'invalid_payload');
  });
});

describe('interoperability with the standardwebhooks reference library', () => {
  it('our signature verifies with the library', async () => {
    const secret = generateCallbackSecret();
    const headers = await signCallback({ id: 'msg_ours', timestamp: new Date(), body, secret });
    expect(new Webhook(secret).verify(body, { ...headers })).toEqual(event);
  });

  it('our rotated (two-entry) signature verifies with the library under either secret', async () => {
    const [a, b] = [generateCallbackSecret(), generateCallbackSecret()];
    const headers = await signCallback({
      id: 'msg_two',
      timestamp: new Date(),
      body,
      secrets: [a, b],
    });
    expect(new Webhook(a).verify(body, { ...headers })).toEqual(event);
    expect(new Webhook(b).verify(body, { ...headers })).toEqual(event);
  });

  it('the library signature verifies with ours', async () => {
    const secret = generateCallbackSecret();
    const timestamp = new Date();
    const signature = new Webhook(secret).sign('msg_theirs', timestamp, body);
    const headers = {
      'webhook-id': 'msg_theirs',
      'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
      'webhook-signature': signature,
    };
    expect(await verifyCallback({ body, headers, secret })).toEqual(event);
    await expectReason(verifyCallback({ body: `${body} `, headers, secret }), 'invalid_signature');
  });

  it('the library and we agree on the known-answer vector', () => {
    const signature = new Webhook(VECTOR.secret).sign(
      VECTOR.id,
      new Date(VECTOR.timestamp * 1000),
      VECTOR.body,
    );
    expect(signature).toBe(VECTOR.signature);
  });
});
