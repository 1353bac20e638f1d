/**
 * The Responses API state: its retention setting (MODELGATE_RESPONSES_RETENTION_DAYS), the sweep
 * that deletes expired responses, `store: false`, and the usage a create records (the chat path's).
 */
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/config.js';
import { createResponseStore } from '../../src/responses/store.js';
import { startTestGateway, type TestGateway } from '../support/index.js';

describe('responses retention setting', () => {
  it('defaults to 30 days and reads the variable', () => {
    expect(loadConfig({}).responses.retentionDays).toBe(30);
    expect(loadConfig({ MODELGATE_RESPONSES_RETENTION_DAYS: '7' }).responses.retentionDays).toBe(7);
  });
  it('stops the start on a bad value, naming the variable', () => {
    expect(() => loadConfig({ MODELGATE_RESPONSES_RETENTION_DAYS: '0' })).toThrow(ConfigError);
    expect(() => loadConfig({ MODELGATE_RESPONSES_RETENTION_DAYS: 'x' })).toThrow(
      /MODELGATE_RESPONSES_RETENTION_DAYS/,
    );
  });
});

describe('responses state', () => {
  let gw: TestGateway;
  let openai: OpenAI;
  let keyId: number;
  beforeAll(async () => {
    gw = await startTestGateway({});
    const created = await gw.createKey();
    keyId = created.id;
    openai = new OpenAI({ apiKey: created.key, baseURL: `${gw.url}/v1`, maxRetries: 0 });
  });
  afterAll(() => gw?.close());

  it('sweeps responses older than the cut-off, and only those', async () => {
    const store = createResponseStore(gw.services.db);
    const old = await openai.responses.create({ model: 'gpt-4o-mini', input: 'Hello' });
    const cutOff = Date.now() + 1;
    await new Promise((r) => setTimeout(r, 5));
    const fresh = await openai.responses.create({ model: 'gpt-4o-mini', input: 'Hello' });
    expect(await store.sweep(cutOff)).toBe(1);
    expect(await store.load(keyId, old.id)).toBeNull();
    expect(await store.load(keyId, fresh.id)).not.toBeNull();
    expect((await openai.responses.retrieve(old.id).catch((e) => e)).status).toBe(404);
  });

  it('keeps nothing with store: false', async () => {
    const response = await openai.responses.create({
      model: 'claude-haiku-4-5',
      input: 'Hello',
      store: false,
    });
    expect(response.output_text.length).toBeGreaterThan(0);
    expect((await openai.responses.retrieve(response.id).catch((e) => e)).status).toBe(404);
  });

  it('records the usage the answer reported, as the chat path does', async () => {
    const response = await openai.responses.create({
      model: 'claude-haiku-4-5',
      input: 'Hi there',
    });
    const requestId = response._request_id;
    const row = await vi.waitFor(
      async () => {
        const found = (await usageRows(gw, keyId)).find((r) => r.request_id === requestId);
        expect(found).toBeDefined();
        return found!;
      },
      { timeout: 5000, interval: 20 },
    );
    expect(Number(row.input_tokens)).toBe(response.usage!.input_tokens);
    expect(Number(row.output_tokens)).toBe(response.usage!.output_tokens);
  });
});

async function usageRows(gw: TestGateway, keyId: number) {
  return gw.services.db
    .selectFrom('usage')
    .selectAll()
    .where('key_id', '=', keyId)
    .orderBy('id')
    .execute();
}
