import { describe, expect, it } from 'vitest';
import { parseTextModelConfig, TextConfigError } from '../../src/config/text-models.js';
import { createTextModelCatalog, modelListResponse } from '../../src/models/catalog.js';

describe('config sections', () => {
  it('parses providers and models, defaulting weights', () => {
    const sections = parseTextModelConfig({
      providers: {
        mine: {
          kind: 'openai',
          base_url: 'http://127.0.0.1:1/v1',
          api_key: 'k',
          timeouts: { first_byte_ms: 500 },
        },
      },
      models: [
        {
          id: 'm',
          deployments: [{ provider: 'mine', model: 'up' }],
          price: { input_per_million: 1, output_per_million: 2 },
        },
      ],
      video: { ignored: true },
    });
    expect(sections.models![0]!.deployments[0]!.weight).toBe(1);
    expect(sections.providers!.mine!.timeouts!.first_byte_ms).toBe(500);
  });

  it.each([
    [{ providers: { x: { kind: 'cohere' } } }, 'providers.x.kind'],
    [
      {
        models: [
          {
            id: 'm',
            deployments: [{ provider: 'nowhere', model: 'u' }],
            price: { input_per_million: 1, output_per_million: 1 },
          },
        ],
      },
      'models.0.deployments.0.provider',
    ],
    [
      {
        models: [
          { id: 'm', deployments: [], price: { input_per_million: 1, output_per_million: 1 } },
        ],
      },
      'models.0.deployments',
    ],
    [
      {
        models: [
          {
            id: 'm',
            deployments: [{ provider: 'openai', model: 'u' }],
            price: { input_per_million: -1, output_per_million: 1 },
          },
        ],
      },
      'models.0.price.input_per_million',
    ],
    [{ providers: { x: { kind: 'openai', apikey: 'typo' } } }, 'providers.x'],
  ])('refuses %j naming %s', (doc, path) => {
    try {
      parseTextModelConfig(doc);
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(TextConfigError);
      expect((err as TextConfigError).path).toBe(path);
    }
  });
});

describe('catalogue modes', () => {
  it('no provider and no simulator: nothing resolves', async () => {
    const catalog = createTextModelCatalog({ env: {} });
    expect(catalog.mode).toBe('none');
    expect(catalog.resolve('gpt-4o-mini')).toBeNull();
  });

  it('config mode: only configured ids, with their price and deployments; env providers implicit', async () => {
    const catalog = createTextModelCatalog({
      env: { ANTHROPIC_API_KEY: 'sk-a' },
      sections: parseTextModelConfig({
        providers: { local: { kind: 'openai', base_url: 'http://127.0.0.1:1/v1', api_key: 'k' } },
        models: [
          {
            id: 'fast',
            deployments: [
              { provider: 'local', model: 'llama', weight: 3 },
              { provider: 'anthropic', model: 'claude-haiku-4-5' },
            ],
            price: { input_per_million: 0.5, output_per_million: 2 },
            max_output_tokens: 512,
          },
        ],
      }),
    });
    expect(catalog.mode).toBe('config');
    const fast = catalog.resolve('fast')!;
    // Its first deployment is an OpenAI-format model OpenAI publishes no cached price for: no discount.
    expect(fast.price).toEqual({
      inputPerMillion: 0.5,
      outputPerMillion: 2,
      cachedInputPerMillion: 0.5,
      cacheWrite5mPerMillion: 0.5,
      cacheWrite1hPerMillion: 0.5,
    });
    expect(fast.maxOutputTokens).toBe(512);
    expect(fast.deployments.map((d) => [d.provider.kind, d.upstreamModel, d.weight])).toEqual([
      ['openai', 'llama', 3],
      ['anthropic', 'claude-haiku-4-5', 1],
    ]);
    expect(catalog.resolve('gpt-4o-mini')).toBeNull();
    expect(
      modelListResponse(catalog.list(), [
        { id: 'veo-3-1', object: 'model', created: 1, owned_by: 'google', type: 'video' },
      ]),
    ).toMatchObject({
      object: 'list',
      data: [
        { id: 'fast', type: 'text' },
        { id: 'veo-3-1', type: 'video' },
      ],
    });
    await catalog.close();
  });

  it('a configured provider without a key is a start-up error', () => {
    expect(() =>
      createTextModelCatalog({
        env: {},
        sections: parseTextModelConfig({
          providers: { p: { kind: 'openai', api_key_env: 'UNSET_KEY' } },
          models: [
            {
              id: 'm',
              deployments: [{ provider: 'p', model: 'u' }],
              price: { input_per_million: 1, output_per_million: 1 },
            },
          ],
        }),
      }),
    ).toThrow(/"m" deploys on provider "p", which has no API key/);
  });
});

describe('the example config file', () => {
  it('parses', async () => {
    const { readFileSync } = await import('node:fs');
    const { parse } = await import('yaml');
    const doc = parse(
      readFileSync(new URL('../../modelgate.example.yaml', import.meta.url), 'utf8'),
    );
    const sections = parseTextModelConfig(doc);
    expect(sections.models!.length).toBeGreaterThan(0);
    // Providers whose key variable is unset are fine as long as no model deploys on them.
    const catalog = createTextModelCatalog({
      sections,
      env: { OPENAI_API_KEY: 'k', ANTHROPIC_API_KEY: 'k' },
    });
    for (const model of sections.models!) {
      expect(catalog.resolve(model.id)!.deployments).toHaveLength(model.deployments.length);
    }
    // Cache prices: derived from the provider's list, or as the config sets them.
    expect(catalog.resolve('claude-sonnet-4-5')!.price).toEqual({
      inputPerMillion: 3,
      outputPerMillion: 15,
      cachedInputPerMillion: 0.3,
      cacheWrite5mPerMillion: 3.75,
      cacheWrite1hPerMillion: 6,
    });
    expect(catalog.resolve('gpt-4o-mini')!.price.cachedInputPerMillion).toBe(0.075);
    expect(catalog.resolve('fast')!.price).toEqual({
      inputPerMillion: 0.5,
      outputPerMillion: 2,
      cachedInputPerMillion: 0.25,
      cacheWrite5mPerMillion: 0.625,
      cacheWrite1hPerMillion: 1,
    });
    await catalog.close();
  });
});
