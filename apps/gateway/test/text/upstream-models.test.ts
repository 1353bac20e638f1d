/**
 * Pass-through mode end to end, with the simulator as the "real" upstream (provider env keys point
 * at it): what it lists is routable and listed at GET /v1/models, nothing else is — an unknown
 * name is a 404 model_not_found with nothing sent or billed — a model it adds later is found on
 * the first request naming it, and a list it cannot give at start falls back to the well-known one.
 */
import { type Simulator, startSimulator } from '@modelgate/provider-sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSTHROUGH_MODELS } from '../../src/models/catalog.js';
import { isTextModelId } from '../../src/models/upstream-list.js';
import { startTestGateway, type TestGateway } from '../support/index.js';

type ModelList = { data: Array<{ id: string; type: string; owned_by: string }> };

function providerEnv(sim: Simulator) {
  return {
    OPENAI_API_KEY: 'sk-upstream-o',
    OPENAI_BASE_URL: `${sim.url}/openai/v1`,
    ANTHROPIC_API_KEY: 'sk-upstream-a',
    ANTHROPIC_BASE_URL: `${sim.url}/anthropic`,
  };
}

async function textModels(gw: TestGateway, key: string): Promise<ModelList['data']> {
  const list = (await (await gw.fetch('/v1/models', { key })).json()) as ModelList;
  return list.data.filter((m) => m.type === 'text');
}

const chat = (gw: TestGateway, key: string, model: string) =>
  gw.fetch('/v1/chat/completions', {
    method: 'POST',
    key,
    json: { model, max_tokens: 2, messages: [{ role: 'user', content: 'Hi' }] },
  });

describe('pass-through with the upstream answering its model list', () => {
  let sim: Simulator;
  let gw: TestGateway;
  let key: string;
  beforeAll(async () => {
    sim = await startSimulator();
    gw = await startTestGateway({ simulator: false, env: providerEnv(sim) });
    ({ key } = await gw.createKey());
  });
  afterAll(async () => {
    await gw?.close();
    await sim?.close();
  });

  const used = async (k: string) => {
    const res = await gw.fetch('/v1/dashboard/billing/credit_grants', { key: k });
    return ((await res.json()) as { total_used: number }).total_used;
  };
  const upstreamChats = () => sim.stats().routes['POST /openai/v1/chat/completions'] ?? 0;

  it('GET /v1/models lists the upstream list, text models only, owned_by from the provider', async () => {
    const listed = await textModels(gw, key);
    expect(listed.map((m) => m.id)).toEqual([
      ...sim.textModels.openai.filter(isTextModelId),
      ...sim.textModels.anthropic,
    ]);
    expect(listed.find((m) => m.id.startsWith('ft:'))?.owned_by).toBe('sim-org');
  });

  it('an id the upstream lists, and the old fixed list did not, answers 200', async () => {
    expect(PASSTHROUGH_MODELS.openai).not.toContain('gpt-4.1-2025-04-14');
    const res = await chat(gw, key, 'gpt-4.1-2025-04-14');
    expect(res.status).toBe(200);
    expect(((await res.json()) as { model: string }).model).toBe('gpt-4.1-2025-04-14');
  });

  it('a model the upstream adds after start is found by the first request naming it', async () => {
    const id = 'ft:gpt-4o-mini-2024-07-18:sim-org::added-later';
    sim.textModels.openai.push(id);
    const res = await chat(gw, key, id);
    expect(res.status).toBe(200);
    expect((await textModels(gw, key)).map((m) => m.id)).toContain(id);
  });

  it('a key may be limited to a model only the upstream lists; an unknown one is refused', async () => {
    const token = (models: string[]) =>
      gw.fetch('/v1/token', {
        method: 'POST',
        key: gw.adminKey,
        json: { name: 't', quota: 1_000, models },
      });
    expect((await token(['gpt-4.1-2025-04-14'])).status).toBe(200);
    const refused = await token(['no-such-model-anywhere']);
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe(
      'model_not_found',
    );
  });

  it.each(['gpt-5', 'text-embedding-3-small', 'totally-made-up'])(
    '%s (not listed upstream, or not a text model) is a 404 model_not_found, nothing sent or billed',
    async (model) => {
      const { key: own } = await gw.createKey();
      const before = upstreamChats();
      const res = await chat(gw, own, model);
      expect(res.status).toBe(404);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe(
        'model_not_found',
      );
      expect(upstreamChats()).toBe(before);
      expect(await used(own)).toBe(0);
    },
  );
});

describe('pass-through with an upstream that cannot list at start', () => {
  let sim: Simulator;
  let gw: TestGateway;
  beforeAll(async () => {
    sim = await startSimulator();
    sim.faults.add({ kind: 'status', status: 500, match: { path: '/openai/v1/models' } });
    gw = await startTestGateway({ simulator: false, env: providerEnv(sim) });
  });
  afterAll(async () => {
    await gw?.close();
    await sim?.close();
  });

  it('serves the well-known list for that provider and logs one warning naming it', async () => {
    const ids = (await textModels(gw, gw.adminKey)).map((m) => m.id);
    expect(ids).toEqual([...PASSTHROUGH_MODELS.openai, ...sim.textModels.anthropic]);
    const warnings = gw.logs.filter((l) => l.level === 'warn' && l.provider === 'openai');
    expect(warnings).toHaveLength(1);
    expect(String(warnings[0]!.reason)).toContain('500');
    expect((await chat(gw, gw.adminKey, 'gpt-4o-mini')).status).toBe(200);
  });
});
