/**
 * Image generation beyond the contract: the image models follow the OpenAI provider's credentials
 * (pass-through mode against the simulator, and none without them), the text router's circuit
 * breaker takes a failing image deployment out, a client that leaves costs nothing, and images
 * that cannot be stored are refunded and leave no files behind.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { zCreditSummary } from '@modelgate/core/zod';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator } from '../../../provider-sim/src/index.js';
import { eachDatabase, startTestGateway, type TestGateway } from '../support/index.js';

type Simulator = Awaited<ReturnType<typeof startSimulator>>;
const IMAGES = '/openai/v1/images';

describe.each(eachDatabase())(
  'image generation through the OpenAI provider on $name',
  (database) => {
    let sim: Simulator;
    let gw: TestGateway;
    let dataDir: string;

    beforeAll(async () => {
      sim = await startSimulator();
      dataDir = await mkdtemp(join(tmpdir(), 'mg-images-'));
      gw = await startTestGateway({
        database,
        simulator: false,
        // Pass-through mode: a provider key, no models configured; the breaker opens after 2 failures.
        env: {
          OPENAI_API_KEY: 'sk-sim',
          OPENAI_BASE_URL: `${sim.url}/openai/v1`,
          MODELGATE_BREAKER_FAILURES: '2',
          MODELGATE_BREAKER_COOLDOWN_MS: '60000',
        },
        config: { dataDir },
      });
    });
    afterEach(() => sim.faults.clear());
    afterAll(async () => {
      await gw?.close();
      await sim?.close();
      await rm(dataDir, { recursive: true, force: true });
    });

    const generate = (key: string, json: Record<string, unknown>, signal?: AbortSignal) =>
      gw.fetch('/v1/images/generations', { method: 'POST', key, json, signal });

    async function usedUnits(key: string): Promise<number> {
      const res = await gw.fetch('/v1/dashboard/billing/credit_grants', { key });
      return Math.round(zCreditSummary.parse(await res.json()).total_used * 1_000_000);
    }

    it('serves the image models on OPENAI_API_KEY, listed apart from the provider’s text models', async () => {
      const { key } = await gw.createKey();
      const models = (await (await gw.fetch('/v1/models', { key })).json()) as {
        data: { id: string; type: string }[];
      };
      const ids = (type: string) => models.data.filter((m) => m.type === type).map((m) => m.id);
      expect(ids('image').sort()).toEqual(['dall-e-2', 'dall-e-3', 'gpt-image-1']);
      expect(ids('text')).toContain('gpt-4o-mini');
      expect(ids('text').filter((id) => id.includes('dall-e') || id.includes('image'))).toEqual([]);
      const res = await generate(key, { model: 'gpt-image-1', prompt: 'a fox', quality: 'high' });
      expect(res.status).toBe(200);
      expect(await usedUnits(key)).toBe(167_000);
    });

    it('a client that leaves before the images are made is not charged', async () => {
      const { key } = await gw.createKey();
      sim.faults.add({ kind: 'delay', ms: 1_500, count: 1, match: { path: IMAGES } });
      const gone = generate(key, { model: 'dall-e-3', prompt: 'x' }, AbortSignal.timeout(200));
      await expect(gone).rejects.toThrow();
      // The gateway aborts its upstream call and refunds; give it the rest of the delay to do so.
      await new Promise((resolve) => setTimeout(resolve, 1_600));
      expect(await usedUnits(key)).toBe(0);
      const logged = gw.logs.filter(
        (l) => l.msg === 'request' && l.route === '/v1/images/generations',
      );
      expect(logged.at(-1)?.status).toBe(400);
    });

    it('refunds images it could not store, and keeps none of them', async () => {
      const { key, id } = await gw.createKey();
      const { store } = gw.services.files;
      const stage = store.stage.bind(store);
      let calls = 0;
      store.stage = async (source, options) => {
        if (++calls === 2) throw new Error('disk full (test)');
        return stage(source, options);
      };
      try {
        const res = await generate(key, { model: 'dall-e-2', prompt: 'x', n: 3, size: '256x256' });
        expect(res.status).toBe(500);
        expect(((await res.json()) as { error: { code: string } }).error.code).toBe(
          'internal_error',
        );
      } finally {
        store.stage = stage;
      }
      expect(await usedUnits(key)).toBe(0);
      const files = await gw.services.db
        .selectFrom('files')
        .select('id')
        .where('key_id', '=', id)
        .execute();
      expect(files).toEqual([]);
    });

    it('takes a failing deployment out (the text router’s breaker): 503 with Retry-After, refunded', async () => {
      const { key } = await gw.createKey();
      sim.faults.add({ kind: 'status', status: 503, match: { path: IMAGES, model: 'dall-e-2' } });
      for (let i = 0; i < 2; i++) {
        expect((await generate(key, { model: 'dall-e-2', prompt: 'x' })).status).toBe(502);
      }
      const calls = sim.stats().routes['POST /openai/v1/images/generations'];
      const open = await generate(key, { model: 'dall-e-2', prompt: 'x' });
      expect(open.status).toBe(503);
      expect(open.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(((await open.json()) as { error: { code: string } }).error.code).toBe(
        'no_deployment_available',
      );
      expect(sim.stats().routes['POST /openai/v1/images/generations']).toBe(calls);
      // Another model is another deployment: still served.
      expect((await generate(key, { model: 'dall-e-3', prompt: 'x' })).status).toBe(200);
      expect(await usedUnits(key)).toBe(40_000);
      const metrics = await (await gw.fetch('/metrics')).text();
      expect(metrics).toMatch(/modelgate_upstream_errors_total\{[^}]*provider="openai"[^}]*\} 2/);
      expect(metrics).toMatch(/modelgate_quota_units_charged_total\{kind="image"\} \d+/);
    });
  },
);

describe('image models without OpenAI credentials', () => {
  let sim: Simulator;
  let gw: TestGateway;
  beforeAll(async () => {
    sim = await startSimulator();
    gw = await startTestGateway({
      simulator: false,
      env: { ANTHROPIC_API_KEY: 'sk-sim', ANTHROPIC_BASE_URL: `${sim.url}/anthropic` },
    });
  });
  afterAll(async () => {
    await gw?.close();
    await sim?.close();
  });

  it('are not listed, and a request for one is a 404', async () => {
    const { key } = await gw.createKey();
    const models = (await (await gw.fetch('/v1/models', { key })).json()) as {
      data: { type: string }[];
    };
    expect(models.data.filter((m) => m.type === 'image')).toEqual([]);
    const res = await gw.fetch('/v1/images/generations', {
      method: 'POST',
      key,
      json: { model: 'dall-e-3', prompt: 'x' },
    });
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('model_not_found');
  });
});
