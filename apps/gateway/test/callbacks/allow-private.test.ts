// "Allow private callback addresses" is one switch, read once into the configuration: the check at
// submit and the check before every delivery attempt both follow it, and nothing else (the process
// environment, a setting of the deliverer) can turn it on.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createCallbacksFeature } from '../../src/callbacks/index.js';
import { loadConfig } from '../../src/config/config.js';
import { Lifecycle } from '../../src/core-services.js';
import { ApiError } from '../../src/errors/api-error.js';
import { createLogger } from '../../src/observability/logger.js';
import { createMetrics } from '../../src/observability/metrics.js';
import { eachDatabase, openTestDatabase, type TestDatabase } from '../support/index.js';
import { type Receiver, startReceiver } from './receiver.js';
import { finishedTask, insertKey } from './support.js';

const log = createLogger({ level: 'error', write: () => {} });

describe.each(eachDatabase())('the allow-private switch on $name', (target) => {
  let h: TestDatabase;
  let keyId: number;
  let receiver: Receiver;
  const saved = process.env.MODELGATE_CALLBACK_ALLOW_PRIVATE;

  beforeAll(async () => {
    h = await openTestDatabase(target);
    keyId = await insertKey(h.db);
    receiver = await startReceiver(() => 204);
  });
  afterAll(async () => {
    await receiver?.close();
    await h?.close();
  });
  afterEach(() => {
    if (saved === undefined) delete process.env.MODELGATE_CALLBACK_ALLOW_PRIVATE;
    else process.env.MODELGATE_CALLBACK_ALLOW_PRIVATE = saved;
  });

  function callbacksWith(env: Record<string, string>) {
    return createCallbacksFeature({
      config: loadConfig(env),
      db: h.db,
      log,
      metrics: createMetrics(),
      lifecycle: new Lifecycle(),
    });
  }

  async function deliverOnce(callbacks: ReturnType<typeof callbacksWith>, taskId: string) {
    const { id } = await h.db.transaction().execute((trx) =>
      callbacks.enqueue(trx, {
        taskId,
        keyId,
        callbackUrl: receiver.url,
        task: finishedTask(taskId, 'completed'),
      }),
    );
    await callbacks.deliverer.runOnce();
    return h.db
      .selectFrom('callback_attempts')
      .select(['status_code', 'error'])
      .where('delivery_id', '=', id)
      .execute();
  }

  it('off in the configuration: refused at submit and at delivery, whatever process.env says', async () => {
    process.env.MODELGATE_CALLBACK_ALLOW_PRIVATE = '1';
    const callbacks = callbacksWith({});
    const refusal = await callbacks.guardUrl(receiver.url).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(ApiError);
    expect(refusal).toMatchObject({
      status: 400,
      param: 'callback_url',
      code: 'callback_url_not_allowed',
    });
    expect((refusal as ApiError).message).toContain('MODELGATE_CALLBACK_ALLOW_PRIVATE=1');
    expect(await deliverOnce(callbacks, 'vt_switch_off')).toEqual([
      { status_code: null, error: 'address_refused' },
    ]);
    expect(receiver.requests).toHaveLength(0);
  });

  it('on in the configuration: accepted at submit and delivered', async () => {
    const callbacks = callbacksWith({ MODELGATE_CALLBACK_ALLOW_PRIVATE: '1' });
    await expect(callbacks.guardUrl(receiver.url)).resolves.toBeUndefined();
    expect(await deliverOnce(callbacks, 'vt_switch_on')).toEqual([
      { status_code: 204, error: null },
    ]);
    expect(receiver.requests).toHaveLength(1);
  });
});
