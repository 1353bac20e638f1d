// The typed methods load the generated SDK (src/resources.ts) on their first call, so an app that
// only streams through client.request never loads it.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createClient, ModelgateError } from '../src/index.js';
import type * as ResourcesModule from '../src/resources.js';
import * as fx from './fixtures.js';
import { json, startServer, type TestServer } from './server.js';

let server: TestServer;
let imports = 0;
let failNextImport = false;
const createResources = vi.fn<typeof ResourcesModule.createResources>();

vi.mock('../src/resources.js', async (importOriginal) => {
  imports++;
  if (failNextImport) {
    failNextImport = false;
    throw new TypeError('Failed to fetch dynamically imported module');
  }
  const actual = await importOriginal<typeof ResourcesModule>();
  createResources.mockImplementation(actual.createResources);
  return { ...actual, createResources };
});

beforeAll(async () => {
  server = await startServer();
  server.handle((_req, res) => json(res, 200, fx.modelList));
});
afterAll(() => server.close());

describe('lazy typed methods', () => {
  it('load on the first typed call only, once per client; a failed load is retried', async () => {
    const client = createClient({ baseUrl: server.url });
    await client.request({ method: 'GET', path: '/v1/models' });
    expect(imports).toBe(0);

    // A chunk that fails to download: a ModelgateError, nothing sent, the next call loads again.
    failNextImport = true;
    const error = await client.models.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelgateError);
    expect((error as ModelgateError).message).toContain('Could not load');
    expect(server.requests).toHaveLength(1); // client.request's
    expect(imports).toBe(1);

    expect(await client.models.list()).toEqual(fx.modelList);
    await client.billing.creditGrants().catch(() => {});
    expect(imports).toBe(2);
    expect(createResources).toHaveBeenCalledTimes(1);

    // Each client builds its own generated client with its own configuration.
    await createClient({ baseUrl: server.url }).models.list();
    expect(createResources).toHaveBeenCalledTimes(2);
  });
});
