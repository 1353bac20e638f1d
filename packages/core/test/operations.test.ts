// Every operation against a real loopback server: method, path, query, headers, body, result.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, type ModelgateClient } from '../src/index.js';
import * as fx from './fixtures.js';
import { json, startServer, type TestServer } from './server.js';

let server: TestServer;
let client: ModelgateClient;

beforeAll(async () => {
  server = await startServer();
  client = createClient({
    baseUrl: `${server.url}/`,
    apiKey: 'sk-test',
    headers: { 'x-app': 'tests' },
    maxRetries: 0,
    // Every fixture also passes the generated response schema of its operation.
    validateResponses: true,
  });
});
afterAll(() => server.close());

function answer(body: unknown) {
  server.handle((_req, res) => json(res, 200, body));
}

function only() {
  expect(server.requests).toHaveLength(1);
  const req = server.requests[0]!;
  expect(req.headers.authorization).toBe('Bearer sk-test');
  expect(req.headers['x-app']).toBe('tests');
  return req;
}

describe('operations', () => {
  it('chat.completions.create posts JSON and returns the completion', async () => {
    answer(fx.chatCompletion);
    const body = { model: 'gpt-4o-mini', messages: [{ role: 'user' as const, content: 'Hi' }] };
    const result = await client.chat.completions.create(body, { headers: { 'x-trace': 't1' } });
    expect(result).toEqual(fx.chatCompletion);
    const req = only();
    expect(req.method).toBe('POST');
    expect(req.url).toBe('/v1/chat/completions');
    expect(req.headers['content-type']).toBe('application/json');
    expect(req.headers['x-trace']).toBe('t1');
    expect(JSON.parse(req.body.toString())).toEqual(body);
  });

  it('completions.create', async () => {
    answer(fx.completion);
    const result = await client.completions.create({ model: 'm', prompt: 'Hello' });
    expect(result.choices[0]?.text).toBe('world');
    const req = only();
    expect([req.method, req.url]).toEqual(['POST', '/v1/completions']);
    expect(JSON.parse(req.body.toString())).toEqual({ model: 'm', prompt: 'Hello' });
  });

  it('messages.create', async () => {
    answer(fx.message);
    const result = await client.messages.create({
      model: 'claude-sonnet-4-5',
      max_tokens: 10,
      messages: [{ role: 'user', content: 'Hi' }],
    });
    expect(result).toEqual(fx.message);
    const req = only();
    expect([req.method, req.url]).toEqual(['POST', '/v1/messages']);
  });

  it('models.list', async () => {
    answer(fx.modelList);
    expect(await client.models.list()).toEqual(fx.modelList);
    const req = only();
    expect([req.method, req.url]).toEqual(['GET', '/v1/models']);
    expect(req.body.length).toBe(0);
  });

  it('images.generate posts the JSON body and returns the images', async () => {
    answer(fx.imagesResponse);
    const body = { model: 'dall-e-3', prompt: 'A cat', size: '1792x1024' as const, n: 1 };
    expect(await client.images.generate(body)).toEqual(fx.imagesResponse);
    const req = only();
    expect([req.method, req.url]).toEqual(['POST', '/v1/images/generations']);
    expect(req.headers['content-type']).toBe('application/json');
    expect(JSON.parse(req.body.toString())).toEqual(body);
  });

  it('images.edit posts the JSON form: the images named by file id or URL', async () => {
    answer(fx.imagesResponse);
    const body = {
      model: 'gpt-image-1',
      prompt: 'Sage green walls',
      images: [{ file_id: 'file-abc' }, { image_url: 'https://example.com/b.png' }],
      response_format: 'url' as const,
    };
    expect(await client.images.edit(body)).toEqual(fx.imagesResponse);
    const req = only();
    expect([req.method, req.url]).toEqual(['POST', '/v1/images/edits']);
    expect(req.headers['content-type']).toBe('application/json');
    expect(JSON.parse(req.body.toString())).toEqual(body);
  });

  it('images.createVariation uploads the image as multipart', async () => {
    answer(fx.imagesResponse);
    const image = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'otter.png', {
      type: 'image/png',
    });
    expect(await client.images.createVariation({ image, n: 2, size: '512x512' })).toEqual(
      fx.imagesResponse,
    );
    const req = only();
    expect([req.method, req.url]).toEqual(['POST', '/v1/images/variations']);
    expect(req.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    const text = req.body.toString('latin1');
    expect(text).toMatch(/name="image"; filename="otter.png"/);
    expect(text).toMatch(/name="n"\r\n\r\n2\r\n/);
    expect(text).toMatch(/name="size"\r\n\r\n512x512\r\n/);
  });

  it('embeddings.create posts JSON and returns the vectors', async () => {
    answer(fx.embeddingList);
    const body = { model: 'text-embedding-3-small', input: ['a', 'b'], dimensions: 2 };
    expect(await client.embeddings.create(body)).toEqual(fx.embeddingList);
    const req = only();
    expect([req.method, req.url]).toEqual(['POST', '/v1/embeddings']);
    expect(JSON.parse(req.body.toString())).toEqual(body);
  });

  it('files.retrieve and files.delete put the id in the path', async () => {
    answer(fx.fileObject);
    expect(await client.files.retrieve('file-abc')).toEqual(fx.fileObject);
    expect([only().method, only().url]).toEqual(['GET', '/v1/files/file-abc']);
    answer(fx.deletedFile);
    expect(await client.files.delete('file-abc')).toEqual(fx.deletedFile);
    expect([only().method, only().url]).toEqual(['DELETE', '/v1/files/file-abc']);
  });

  it('video.generations.create sends an Idempotency-Key', async () => {
    answer(fx.videoTaskCreated);
    const body = { model: 'kling-v3' as const, prompt: 'a cat surfing' };
    expect(await client.video.generations.create(body)).toEqual(fx.videoTaskCreated);
    const req = only();
    expect([req.method, req.url]).toEqual(['POST', '/v1/video/generations']);
    expect(req.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(JSON.parse(req.body.toString())).toEqual(body);

    answer(fx.videoTaskCreated);
    await client.video.generations.create(body, { idempotencyKey: 'my-key-1' });
    expect(only().headers['idempotency-key']).toBe('my-key-1');
  });

  it('video.generations.retrieve, list (query) and cancel', async () => {
    answer(fx.videoTask);
    expect(await client.video.generations.retrieve('vt_1')).toEqual(fx.videoTask);
    expect([only().method, only().url]).toEqual(['GET', '/v1/video/generations/vt_1']);

    answer(fx.videoTaskList);
    expect(
      await client.video.generations.list({ limit: 5, after: 'vt_9', status: 'completed' }),
    ).toEqual(fx.videoTaskList);
    const url = new URL(only().url, server.url);
    expect(url.pathname).toBe('/v1/video/generations');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      limit: '5',
      after: 'vt_9',
      status: 'completed',
    });

    answer(fx.videoTask);
    await client.video.generations.cancel('vt_1');
    expect([only().method, only().url]).toEqual(['POST', '/v1/video/generations/vt_1/cancel']);
  });

  it('billing.creditGrants and tokens.create', async () => {
    answer(fx.creditSummary);
    expect(await client.billing.creditGrants()).toEqual(fx.creditSummary);
    expect([only().method, only().url]).toEqual(['GET', '/v1/dashboard/billing/credit_grants']);

    answer(fx.token);
    expect(await client.tokens.create({ name: 'ci', quota: 1_000_000 })).toEqual(fx.token);
    const req = only();
    expect([req.method, req.url]).toEqual(['POST', '/v1/token']);
    expect(JSON.parse(req.body.toString())).toEqual({ name: 'ci', quota: 1_000_000 });
  });

  it('audit.list (admin) sends its filters and returns the page', async () => {
    const entry = {
      object: 'audit_entry' as const,
      id: 3,
      created_at: 1_700_000_000,
      action: 'key.update' as const,
      actor_key_id: 1,
      request_id: 'req_1',
      target: { type: 'key' as const, id: '7' },
      before: { quota: 1 },
      after: { quota: 2 },
    };
    answer({ object: 'list', data: [entry], has_more: false, next_cursor: null });
    const page = await client.audit.list({ key_id: 7, action: 'key.update' });
    expect(page.data).toEqual([entry]);
    expect([only().method, only().url]).toEqual(['GET', '/v1/audit?key_id=7&action=key.update']);
  });

  it('keys.list / retrieve / update / revoke (admin)', async () => {
    answer({ object: 'list', data: [fx.apiKey], has_more: false, next_cursor: null });
    const page = await client.keys.list({ limit: 5, status: 'active' });
    expect(page.data).toEqual([fx.apiKey]);
    expect([only().method, only().url]).toEqual(['GET', '/v1/keys?limit=5&status=active']);

    answer(fx.apiKey);
    expect(await client.keys.retrieve(7)).toEqual(fx.apiKey);
    expect([only().method, only().url]).toEqual(['GET', '/v1/keys/7']);

    answer({ ...fx.apiKey, quota: 2_000_000, remaining: 1_750_000 });
    expect((await client.keys.update(7, { quota: 2_000_000, rpm: null })).quota).toBe(2_000_000);
    const patch = only();
    expect([patch.method, patch.url]).toEqual(['PATCH', '/v1/keys/7']);
    expect(JSON.parse(patch.body.toString())).toEqual({ quota: 2_000_000, rpm: null });

    answer({ ...fx.apiKey, status: 'revoked', revoked_at: 1_700_000_100 });
    expect((await client.keys.revoke(7)).status).toBe('revoked');
    expect([only().method, only().url]).toEqual(['POST', '/v1/keys/7/revoke']);
  });

  it('teams.list / create / retrieve / update / delete (admin)', async () => {
    const team = {
      object: 'team' as const,
      id: 3,
      name: 'research',
      alert_url: null,
      budget: null,
      keys: 0,
      created_at: 1_700_000_000,
    };
    answer({ object: 'list', data: [team], has_more: false, next_cursor: null });
    expect((await client.teams.list({ limit: 5 })).data).toEqual([team]);
    expect([only().method, only().url]).toEqual(['GET', '/v1/teams?limit=5']);

    answer(team);
    expect(await client.teams.create({ name: 'research' })).toEqual(team);
    const created = only();
    expect([created.method, created.url]).toEqual(['POST', '/v1/teams']);
    expect(JSON.parse(created.body.toString())).toEqual({ name: 'research' });

    answer(team);
    expect(await client.teams.retrieve(3)).toEqual(team);
    expect([only().method, only().url]).toEqual(['GET', '/v1/teams/3']);

    answer({ ...team, name: 'lab' });
    expect((await client.teams.update(3, { name: 'lab' })).name).toBe('lab');
    expect([only().method, only().url]).toEqual(['PATCH', '/v1/teams/3']);

    answer({ object: 'team', id: 3, deleted: true });
    expect(await client.teams.delete(3)).toEqual({ object: 'team', id: 3, deleted: true });
    expect([only().method, only().url]).toEqual(['DELETE', '/v1/teams/3']);
  });

  it('usage.retrieve sends group_by comma-separated, as the spec says; usage.records.list', async () => {
    answer(fx.usageReport);
    const report = await client.usage.retrieve({
      bucket_width: '1d',
      group_by: ['model', 'key_id'],
    });
    expect(report).toEqual(fx.usageReport);
    const { method, url } = only();
    expect(method).toBe('GET');
    expect(decodeURIComponent(url)).toBe('/v1/usage?bucket_width=1d&group_by=model,key_id');

    answer({ object: 'list', data: [fx.usageRecord], has_more: false, next_cursor: null });
    const records = await client.usage.records.list({ request_id: 'req_1', limit: 1 });
    expect(records.data).toEqual([fx.usageRecord]);
    expect(only().url).toBe('/v1/usage/records?request_id=req_1&limit=1');
  });

  it('callbacks.secret.retrieve / rotate and callbacks.deliveries.list', async () => {
    answer(fx.callbackSecret);
    expect(await client.callbacks.secret.retrieve()).toEqual(fx.callbackSecret);
    expect([only().method, only().url]).toEqual(['GET', '/v1/callbacks/secret']);

    answer(fx.callbackSecret);
    await client.callbacks.secret.rotate({ grace_period_seconds: 60 });
    let req = only();
    expect([req.method, req.url]).toEqual(['POST', '/v1/callbacks/secret']);
    expect(JSON.parse(req.body.toString())).toEqual({ grace_period_seconds: 60 });

    answer(fx.callbackSecret);
    await client.callbacks.secret.rotate();
    req = only();
    expect(req.body.length).toBe(0);

    answer(fx.callbackDeliveryList);
    expect(await client.callbacks.deliveries.list({ task_id: 'vt_1', limit: 2 })).toEqual(
      fx.callbackDeliveryList,
    );
    const url = new URL(only().url, server.url);
    expect(url.pathname).toBe('/v1/callbacks/deliveries');
    expect(url.searchParams.get('task_id')).toBe('vt_1');
    expect(url.searchParams.get('limit')).toBe('2');
  });

  it('callbacks.deliveries.redeliver posts to the delivery and returns it pending', async () => {
    const delivery = { ...fx.callbackDeliveryList.data[0]!, status: 'pending' as const };
    answer(delivery);
    expect(await client.callbacks.deliveries.redeliver('msg_abc')).toEqual(delivery);
    expect([only().method, only().url]).toEqual([
      'POST',
      '/v1/callbacks/deliveries/msg_abc/redeliver',
    ]);
  });

  it('files.create uploads multipart with the file name, type and bytes', async () => {
    answer(fx.fileObject);
    const bytes = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 255, 10, 13]);
    const file = new File([bytes], 'cat.png', { type: 'image/png' });
    expect(await client.files.create({ file, purpose: 'image' })).toEqual(fx.fileObject);
    const req = only();
    expect([req.method, req.url]).toEqual(['POST', '/v1/files']);
    const contentType = String(req.headers['content-type']);
    expect(contentType).toMatch(/^multipart\/form-data; boundary=/);
    // Parse the bytes the server received with the platform's own multipart parser.
    const form = await new Response(new Uint8Array(req.body), {
      headers: { 'content-type': contentType },
    }).formData();
    expect(form.get('purpose')).toBe('image');
    const received = form.get('file') as File;
    expect(received.name).toBe('cat.png');
    expect(received.type).toBe('image/png');
    expect(new Uint8Array(await received.arrayBuffer())).toEqual(bytes);
  });

  it('client.request returns the raw response with the client configuration', async () => {
    server.handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('raw');
    });
    const res = await client.request({
      method: 'POST',
      path: '/v1/chat/completions',
      body: { model: 'm', messages: [], stream: true },
      query: { debug: 1 },
    });
    expect(await res.text()).toBe('raw');
    const req = only();
    expect(req.url).toBe('/v1/chat/completions?debug=1');
    expect(req.headers['content-type']).toBe('application/json');
    expect(JSON.parse(req.body.toString())).toEqual({ model: 'm', messages: [], stream: true });
  });

  it('exposes the resolved options', () => {
    expect(client.options.baseUrl).toBe(server.url);
    expect(client.options.timeoutMs).toBe(600_000);
    expect(client.options.maxRetries).toBe(0);
    expect(Object.isFrozen(client.options)).toBe(true);
  });
});
