/**
 * Pass-through mode learns each provider's own model list (a real simulator plays the provider):
 * at start, on a schedule, once more on a miss (rate-limited, shared), with the well-known list
 * standing in while the provider cannot be asked.
 */
import { type Simulator, startSimulator } from '@modelgate/provider-sim';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  createTextModelCatalog,
  PASSTHROUGH_MODELS,
  type TextModelCatalog,
} from '../../src/models/catalog.js';
import { isTextModelId } from '../../src/models/upstream-list.js';
import { createLogger } from '../../src/observability/logger.js';

let sim: Simulator;
let catalog: TextModelCatalog;
afterEach(async () => {
  await catalog?.close();
  await sim?.close();
});

function passthrough(
  env: Record<string, string>,
  refresh: { missCooldownMs?: number; fetchTimeoutMs?: number; intervalMs?: number } = {},
) {
  const logs: Record<string, unknown>[] = [];
  const log = createLogger({ write: (line) => logs.push(JSON.parse(line)) });
  catalog = createTextModelCatalog({
    env,
    log,
    refresh,
    reservedModelIds: new Set(['veo-3-1']),
  });
  return { catalog, logs };
}

const openaiEnv = () => ({ OPENAI_API_KEY: 'sk-o', OPENAI_BASE_URL: `${sim.url}/openai/v1` });
const anthropicEnv = () => ({
  ANTHROPIC_API_KEY: 'sk-a',
  ANTHROPIC_BASE_URL: `${sim.url}/anthropic`,
});
const ids = (c: TextModelCatalog) => c.list().map((m) => m.id);
const listCalls = (path: 'openai' | 'anthropic') =>
  sim.stats().routes[path === 'openai' ? 'GET /openai/v1/models' : 'GET /anthropic/v1/models'] ?? 0;

describe('which ids are text models', () => {
  it.each([
    ['gpt-4.1-2025-04-14', true],
    ['o4-mini', true],
    ['chatgpt-4o-latest', true],
    ['gpt-3.5-turbo-instruct', true],
    ['ft:gpt-4o-mini-2024-07-18:acme:audio-helper:x1', true],
    ['text-embedding-3-small', false],
    ['whisper-1', false],
    ['tts-1-hd', false],
    ['gpt-4o-mini-tts', false],
    ['dall-e-3', false],
    ['gpt-image-1', false],
    ['omni-moderation-latest', false],
    ['gpt-4o-realtime-preview', false],
    ['gpt-4o-mini-transcribe', false],
    ['gpt-4o-audio-preview', false],
    ['davinci-002', false],
    ['sora-2', false],
  ])('%s → %s', (id, text) => {
    expect(isTextModelId(id)).toBe(text);
  });
});

describe('pass-through catalogue', () => {
  it('lists exactly what the providers list (text models only), and resolves exactly that', async () => {
    sim = await startSimulator();
    sim.textModels.openai.push('veo-3-1');
    passthrough({ ...openaiEnv(), ...anthropicEnv() });
    expect(ids(catalog)).toEqual([]);
    await catalog.start();
    const expected = [
      ...sim.textModels.openai.filter((id) => isTextModelId(id) && id !== 'veo-3-1'),
      ...sim.textModels.anthropic,
    ];
    expect(ids(catalog)).toEqual(expected);
    expect(ids(catalog)).toContain('gpt-4.1-2025-04-14');
    expect(ids(catalog)).not.toContain('text-embedding-3-small');
    for (const id of expected) expect(catalog.resolve(id)?.id).toBe(id);
    for (const id of ['gpt-5', 'totally-made-up', 'veo-3-1', 'text-embedding-3-small', '']) {
      expect(catalog.resolve(id)).toBeNull();
    }
    const ft = catalog.list().find((m) => m.id.startsWith('ft:'));
    expect(ft).toMatchObject({ owned_by: 'sim-org', type: 'text', object: 'model' });
    expect(catalog.list().find((m) => m.id === 'claude-haiku-4-5')?.owned_by).toBe('anthropic');
    const haiku = catalog.resolve('claude-haiku-4-5')!.deployments[0]!;
    expect([haiku.provider.kind, haiku.upstreamModel]).toEqual(['anthropic', 'claude-haiku-4-5']);
  });

  it('an OpenAI key alone serves no claude-* model', async () => {
    sim = await startSimulator();
    passthrough(openaiEnv());
    await catalog.start();
    expect(ids(catalog).some((id) => id.startsWith('claude-'))).toBe(false);
    expect(catalog.resolve('gpt-4o-mini')!.deployments[0]!.provider.kind).toBe('openai');
  });

  it('reads every page of a long Anthropic list', async () => {
    const many = Array.from({ length: 2_345 }, (_, i) => `claude-test-${i}`);
    sim = await startSimulator({ textModels: { anthropic: many } });
    passthrough(anthropicEnv());
    await catalog.start();
    expect(ids(catalog)).toEqual(many);
    expect(listCalls('anthropic')).toBe(3);
  });

  it('a provider answering 500 at start: the well-known list, one warning naming it and why', async () => {
    sim = await startSimulator();
    sim.faults.add({ kind: 'status', status: 500, match: { path: '/openai/v1/models' } });
    const { logs } = passthrough({ ...openaiEnv(), ...anthropicEnv() });
    await catalog.start();
    expect(ids(catalog)).toEqual([...PASSTHROUGH_MODELS.openai, ...sim.textModels.anthropic]);
    const warnings = logs.filter((l) => l.level === 'warn');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ provider: 'openai' });
    expect(String(warnings[0]!.msg)).toContain('well-known list');
    expect(String(warnings[0]!.reason)).toContain('500');

    // Retried later (here: on a miss): once the provider answers, its own list replaces the stand-in.
    sim.faults.clear();
    expect(await catalog.resolveFresh('gpt-4.1-2025-04-14')).not.toBeNull();
    expect(catalog.resolve('gpt-5')).toBeNull();
    expect(logs.filter((l) => l.level === 'warn')).toHaveLength(1);
  });

  it('a refused key at start says so', async () => {
    sim = await startSimulator({ requireKey: 'sk-right' });
    const { logs } = passthrough(openaiEnv());
    await catalog.start();
    expect(ids(catalog)).toEqual(PASSTHROUGH_MODELS.openai);
    const warning = logs.find((l) => l.level === 'warn')!;
    expect(String(warning.reason)).toMatch(/refused the API key \(401\)/);
  });

  it('a provider that never answers does not hold the start past the fetch timeout', async () => {
    sim = await startSimulator();
    sim.faults.add({ kind: 'hang', match: { path: '/openai/v1/models' } });
    const { logs } = passthrough(openaiEnv(), { fetchTimeoutMs: 200 });
    await catalog.start();
    expect(ids(catalog)).toEqual(PASSTHROUGH_MODELS.openai);
    expect(String(logs.find((l) => l.level === 'warn')!.reason)).toContain('no answer in time');
  });

  it('a model added upstream after start is found by the refresh a miss triggers', async () => {
    sim = await startSimulator();
    passthrough(openaiEnv());
    await catalog.start();
    expect(catalog.resolve('ft:gpt-4.1:acme::new1')).toBeNull();
    sim.textModels.openai.push('ft:gpt-4.1:acme::new1');
    expect((await catalog.resolveFresh('ft:gpt-4.1:acme::new1'))?.id).toBe('ft:gpt-4.1:acme::new1');
    expect(ids(catalog)).toContain('ft:gpt-4.1:acme::new1');
  });

  it('misses share one fetch and ask again at most once per cooldown', async () => {
    sim = await startSimulator();
    passthrough(openaiEnv(), { missCooldownMs: 60_000 });
    await catalog.start();
    expect(listCalls('openai')).toBe(1);
    const answers = await Promise.all(
      ['nope-1', 'nope-2', 'nope-3', 'nope-4'].map((id) => catalog.resolveFresh(id)),
    );
    expect(answers).toEqual([null, null, null, null]);
    expect(listCalls('openai')).toBe(2);
    // Within the cooldown a miss answers from the cache: unknown names cannot hammer the provider.
    sim.textModels.openai.push('gpt-later');
    expect(await catalog.resolveFresh('gpt-later')).toBeNull();
    expect(listCalls('openai')).toBe(2);
    // A known id never asks.
    expect(await catalog.resolveFresh('gpt-4o-mini')).not.toBeNull();
    expect(listCalls('openai')).toBe(2);
  });

  it('the schedule fetches again without any request', async () => {
    sim = await startSimulator();
    passthrough(openaiEnv(), { intervalMs: 20 });
    await catalog.start();
    sim.textModels.openai.push('gpt-scheduled');
    sim.textModels.openai.splice(sim.textModels.openai.indexOf('gpt-4o'), 1);
    await vi.waitFor(() => expect(catalog.resolve('gpt-scheduled')).not.toBeNull());
    expect(catalog.resolve('gpt-4o')).toBeNull();
    expect(ids(catalog)).not.toContain('gpt-4o');
  });

  it('a miss before start asks the provider', async () => {
    sim = await startSimulator();
    passthrough(openaiEnv());
    expect((await catalog.resolveFresh('gpt-4.1-2025-04-14'))?.id).toBe('gpt-4.1-2025-04-14');
  });
});
