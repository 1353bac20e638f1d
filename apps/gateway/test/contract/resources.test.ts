/**
 * Contract of the account, files, video and callbacks operations against a demo-mode gateway
 * (video providers = the in-process simulator): success bodies validated with the generated zod
 * schemas, each documented error status with its body and headers, declared in the spec.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  zCallbackDeliveryList,
  zCallbackSecret,
  zCreditSummary,
  zDeletedFile,
  zFileObject,
  zToken,
  zVideoTask,
  zVideoTaskCreated,
  zVideoTaskList,
} from '@modelgate/core/zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eachDatabase, startTestGateway, type TestGateway } from '../support/index.js';
import { PNG_1X1, upload, waitFinal } from '../support/video-gateway.js';
import {
  expectError,
  expectOk,
  type Json,
  type Operation,
  oversizedJson,
  postAlone,
} from './support.js';

const MAX_UPLOAD = 64 * 1024;
const limited = { limited: true };

/** A multipart body by hand (for requests sent on their own connection). */
function multipart(fields: Record<string, string>, file: { name: string; bytes: Uint8Array }) {
  const boundary = `----contract${Date.now()}`;
  const head = Object.entries(fields)
    .map(([k, v]) => `--${boundary}\r\ncontent-disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`)
    .join('');
  const body = Buffer.concat([
    Buffer.from(
      `${head}--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="${file.name}"\r\ncontent-type: image/png\r\n\r\n`,
    ),
    Buffer.from(file.bytes),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { body, contentType: `multipart/form-data; boundary=${boundary}` };
}

describe.each(eachDatabase())('resource contract on $name', (database) => {
  let gw: TestGateway;
  let dataDir: string;
  let key: string;
  let other: string;
  let admin: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'mg-contract-'));
    gw = await startTestGateway({
      database,
      simulator: { video: { processingMs: 300 } },
      env: { MODELGATE_VIDEO_POLL_INTERVAL_MS: '40' },
      config: { dataDir, maxUploadBytes: MAX_UPLOAD },
    });
    // Every key has an rpm, so every answer after auth must carry x-ratelimit-*.
    ({ key } = await gw.createKey({ rpm: 100_000 }));
    ({ key: other } = await gw.createKey({ rpm: 100_000 }));
    ({ key: admin } = await gw.createKey({ role: 'admin', rpm: 100_000 }));
  });
  afterAll(async () => {
    await gw?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  const postJson = (path: string, json: unknown, k = key, headers: Record<string, string> = {}) =>
    gw.fetch(path, { method: 'POST', key: k, json, headers });
  const postRaw = (path: string, body: string, contentType: string, k = key) =>
    gw.fetch(path, { method: 'POST', key: k, body, headers: { 'content-type': contentType } });

  /** 400 invalid_json, 415 for text/plain, 413 beyond 1 MiB — for a JSON-body operation. */
  async function expectJsonBodyErrors(op: Operation, path: string, valid: Json, k = key) {
    await expectError(await postRaw(path, '{"oops":', 'application/json', k), op, {
      status: 400,
      param: null,
      code: 'invalid_json',
      ...limited,
    });
    await expectError(await postRaw(path, JSON.stringify(valid), 'text/plain', k), op, {
      status: 415,
      ...limited,
    });
    // Refused while reading, before the key is looked up: not counted, so no x-ratelimit-*.
    const huge = await postAlone(`${gw.url}${path}`, oversizedJson(valid), {
      authorization: `Bearer ${k}`,
      'content-type': 'application/json',
    });
    await expectError(huge, op, { status: 413 });
  }

  describe('account', () => {
    it('GET /v1/dashboard/billing/credit_grants answers a credit summary', async () => {
      const op = 'GET /v1/dashboard/billing/credit_grants';
      const res = await gw.fetch('/v1/dashboard/billing/credit_grants', { key });
      const summary = await expectOk(res, op, zCreditSummary, limited);
      expect(summary.total_granted).toBe(1000);
    });

    it('POST /v1/token creates a key (admin) and refuses a user key with 403', async () => {
      const op = 'POST /v1/token';
      const body = { name: 'contract', quota: 5_000_000, rpm: 60, models: ['gpt-4o-mini'] };
      const token = await expectOk(await postJson('/v1/token', body, admin), op, zToken, limited);
      expect(token.key).toMatch(/^sk-[A-Za-z0-9]{48}$/);
      const err = await expectError(await postJson('/v1/token', body, key), op, {
        status: 403,
        ...limited,
      });
      expect(err.code).toBe('admin_key_required');
    });

    it.each([
      ['wrong type', { name: 'x', quota: 'lots' }, 'quota'],
      ['out of bounds', { name: 'x', quota: -1 }, 'quota'],
      ['out of bounds', { name: '', quota: 1 }, 'name'],
      ['out of bounds', { name: 'x', quota: 1, expires_at: 1 }, 'expires_at'],
      ['unknown field', { name: 'x', quota: 1, credits: 5 }, 'credits'],
      ['missing field', { quota: 1 }, 'name'],
      ['missing field', { name: 'x' }, 'quota'],
    ])('POST /v1/token: 400 for a %s naming %s', async (_what, body, param) => {
      await expectError(await postJson('/v1/token', body, admin), 'POST /v1/token', {
        status: 400,
        param,
        ...limited,
      });
    });

    it('POST /v1/token: malformed JSON, content type, size', async () => {
      await expectJsonBodyErrors('POST /v1/token', '/v1/token', { name: 'x', quota: 1 }, admin);
    });
  });

  describe('files', () => {
    it('upload, get, delete answer file objects; the URL stops serving after delete', async () => {
      const created = await expectOk(
        await upload(gw, key, PNG_1X1, 'pixel.png'),
        'POST /v1/files',
        zFileObject,
        limited,
      );
      expect(created).toMatchObject({
        object: 'file',
        mime_type: 'image/png',
        size: PNG_1X1.length,
      });
      const got = await expectOk(
        await gw.fetch(`/v1/files/${created.id}`, { key }),
        'GET /v1/files/{file_id}',
        zFileObject,
        limited,
      );
      expect(got.id).toBe(created.id);
      // Another key's file: 404, never 403.
      for (const method of ['GET', 'DELETE']) {
        const op = `${method} /v1/files/{file_id}`;
        const res = await gw.fetch(`/v1/files/${created.id}`, { method, key: other });
        await expectError(res, op, { status: 404, param: 'file_id', ...limited });
      }
      expect((await fetch(created.url)).status).toBe(200);
      await expectOk(
        await gw.fetch(`/v1/files/${created.id}`, { method: 'DELETE', key }),
        'DELETE /v1/files/{file_id}',
        zDeletedFile,
        limited,
      );
      expect((await fetch(created.url)).status).toBe(404);
      await expectError(
        await gw.fetch(`/v1/files/${created.id}`, { key }),
        'GET /v1/files/{file_id}',
        { status: 404, ...limited },
      );
      await expectError(
        await gw.fetch(`/v1/files/${created.id}`, { method: 'DELETE', key }),
        'DELETE /v1/files/{file_id}',
        { status: 404, ...limited },
      );
    });

    it.each([
      ['missing field', (f: FormData) => f.delete('purpose'), 'purpose'],
      ['out of bounds', (f: FormData) => f.set('purpose', 'video'), 'purpose'],
      ['unknown field', (f: FormData) => f.set('colour', 'red'), 'colour'],
      ['missing field', (f: FormData) => f.delete('file'), 'file'],
      ['wrong type', (f: FormData) => f.set('file', 'not a file part'), 'file'],
    ])('POST /v1/files: 400 for a %s naming %s', async (_what, change, param) => {
      const form = new FormData();
      form.set('purpose', 'image');
      form.set('file', new Blob([PNG_1X1]), 'pixel.png');
      change(form);
      const res = await gw.fetch('/v1/files', { method: 'POST', key, body: form });
      await expectError(res, 'POST /v1/files', { status: 400, param, ...limited });
    });

    it('POST /v1/files: 415 for JSON and for a non-image file, 413 beyond the upload limit', async () => {
      const op = 'POST /v1/files';
      await expectError(await postJson('/v1/files', { purpose: 'image' }), op, {
        status: 415,
        ...limited,
      });
      const text = new TextEncoder().encode('just some text, named like a picture');
      const err = await expectError(await upload(gw, key, text, 'fake.png'), op, {
        status: 415,
        ...limited,
      });
      expect(err.code).toBe('unsupported_file_type');
      const big = new Uint8Array(MAX_UPLOAD + 1024);
      big.set(PNG_1X1);
      const { body, contentType } = multipart(
        { purpose: 'image' },
        { name: 'big.png', bytes: big },
      );
      const res = await postAlone(`${gw.url}/v1/files`, body, {
        authorization: `Bearer ${key}`,
        'content-type': contentType,
      });
      await expectError(res, op, { status: 413, code: 'file_too_large', ...limited });
    });
  });

  describe('video', () => {
    const submitOp = 'POST /v1/video/generations';
    const valid = { model: 'seedance-2', prompt: 'a red kite', duration: 4 };

    it('submit, get, list, cancel answer their schemas; a final task cannot be cancelled (409)', async () => {
      const created = await expectOk(
        await postJson('/v1/video/generations', valid),
        submitOp,
        zVideoTaskCreated,
        limited,
      );
      expect(created.status).toBe('pending');
      const done = await waitFinal(gw, key, created.task_id);
      expect(done.status).toBe('completed');
      const task = await expectOk(
        await gw.fetch(`/v1/video/generations/${created.task_id}`, { key }),
        'GET /v1/video/generations/{task_id}',
        zVideoTask,
        limited,
      );
      expect(task.video?.url).toContain(`/videos/${created.task_id}.mp4`);
      const err = await expectError(
        await gw.fetch(`/v1/video/generations/${created.task_id}/cancel`, { method: 'POST', key }),
        'POST /v1/video/generations/{task_id}/cancel',
        { status: 409, ...limited },
      );
      expect(err.code).toBe('task_already_final');

      const pending = (await (await postJson('/v1/video/generations', valid)).json()) as Json;
      const cancelled = await expectOk(
        await gw.fetch(`/v1/video/generations/${pending.task_id}/cancel`, { method: 'POST', key }),
        'POST /v1/video/generations/{task_id}/cancel',
        zVideoTask,
        limited,
      );
      expect(cancelled.status).toBe('cancelled');

      const list = await expectOk(
        await gw.fetch('/v1/video/generations?limit=1', { key }),
        'GET /v1/video/generations',
        zVideoTaskList,
        limited,
      );
      expect(list.data).toHaveLength(1);

      // Another key's task: 404 on get and cancel.
      for (const [op, method, path] of [
        ['GET /v1/video/generations/{task_id}', 'GET', `/v1/video/generations/${created.task_id}`],
        [
          'POST /v1/video/generations/{task_id}/cancel',
          'POST',
          `/v1/video/generations/${pending.task_id}/cancel`,
        ],
      ] as const) {
        await expectError(await gw.fetch(path, { method, key: other }), op, {
          status: 404,
          code: 'task_not_found',
          ...limited,
        });
      }
    });

    it.each([
      ['wrong type', { ...valid, duration: '4' }, 'duration'],
      ['out of bounds', { ...valid, duration: 999 }, 'duration'],
      ['out of bounds', { ...valid, resolution: '8k' }, 'resolution'],
      ['unknown field', { ...valid, colour: 'red' }, 'colour'],
      ['missing field', { model: 'seedance-2' }, 'prompt'],
      ['missing field', { prompt: 'x' }, 'model'],
    ])('POST /v1/video/generations: 400 for a %s naming %s', async (_what, body, param) => {
      await expectError(await postJson('/v1/video/generations', body), submitOp, {
        status: 400,
        param,
        ...limited,
      });
    });

    it('POST /v1/video/generations: 402, 403, 404, 409', async () => {
      const { key: poor } = await gw.createKey({ quota: 0, rpm: 100 });
      await expectError(await postJson('/v1/video/generations', valid, poor), submitOp, {
        status: 402,
        ...limited,
      });
      const { key: narrow } = await gw.createKey({ models: ['kling-v3'], rpm: 100 });
      await expectError(await postJson('/v1/video/generations', valid, narrow), submitOp, {
        status: 403,
        param: 'model',
        ...limited,
      });
      await expectError(
        await postJson('/v1/video/generations', { ...valid, model: 'sora-2' }),
        submitOp,
        { status: 404, param: 'model', code: 'model_not_found', ...limited },
      );
      const headers = { 'idempotency-key': `contract-${Date.now()}` };
      await expectOk(
        await postJson('/v1/video/generations', valid, key, headers),
        submitOp,
        zVideoTaskCreated,
        limited,
      );
      const err = await expectError(
        await postJson('/v1/video/generations', { ...valid, prompt: 'another' }, key, headers),
        submitOp,
        { status: 409, ...limited },
      );
      expect(err.code).toBe('idempotency_key_reused');
    });

    it('POST /v1/video/generations: malformed JSON, content type, size', async () => {
      await expectJsonBodyErrors(submitOp, '/v1/video/generations', valid);
    });

    it.each([
      ['limit=0', 'limit'],
      ['limit=abc', 'limit'],
      ['limit=101', 'limit'],
      ['status=done', 'status'],
    ])('GET /v1/video/generations?%s: 400 naming %s', async (query, param) => {
      const res = await gw.fetch(`/v1/video/generations?${query}`, { key });
      await expectError(res, 'GET /v1/video/generations', { status: 400, param, ...limited });
    });

    it('GET /v1/video/generations/{task_id}: 404 for an unknown task', async () => {
      await expectError(
        await gw.fetch('/v1/video/generations/vt_doesnotexist', { key }),
        'GET /v1/video/generations/{task_id}',
        { status: 404, code: 'task_not_found', ...limited },
      );
    });
  });

  describe('callbacks', () => {
    const rotateOp = 'POST /v1/callbacks/secret';

    it('GET and POST /v1/callbacks/secret answer the secret; rotation changes it', async () => {
      const before = await expectOk(
        await gw.fetch('/v1/callbacks/secret', { key }),
        'GET /v1/callbacks/secret',
        zCallbackSecret,
        limited,
      );
      const rotated = await expectOk(
        await gw.fetch('/v1/callbacks/secret', { method: 'POST', key }),
        rotateOp,
        zCallbackSecret,
        limited,
      );
      expect(rotated.secret).not.toBe(before.secret);
      await expectOk(
        await postJson('/v1/callbacks/secret', { grace_period_seconds: 60 }),
        rotateOp,
        zCallbackSecret,
        limited,
      );
    });

    it.each([
      ['wrong type', { grace_period_seconds: 'soon' }, 'grace_period_seconds'],
      ['out of bounds', { grace_period_seconds: -1 }, 'grace_period_seconds'],
      ['unknown field', { grace: 60 }, 'grace'],
    ])('POST /v1/callbacks/secret: 400 for a %s naming %s', async (_what, body, param) => {
      await expectError(await postJson('/v1/callbacks/secret', body), rotateOp, {
        status: 400,
        param,
        ...limited,
      });
    });

    it('POST /v1/callbacks/secret: malformed JSON, content type, size', async () => {
      await expectJsonBodyErrors(rotateOp, '/v1/callbacks/secret', { grace_period_seconds: 60 });
    });

    it('GET /v1/callbacks/deliveries answers a list; bad query values are 400 naming them', async () => {
      const op = 'GET /v1/callbacks/deliveries';
      await expectOk(
        await gw.fetch('/v1/callbacks/deliveries', { key }),
        op,
        zCallbackDeliveryList,
        limited,
      );
      for (const [query, param] of [
        ['limit=0', 'limit'],
        ['limit=abc', 'limit'],
        [`task_id=${'x'.repeat(200)}`, 'task_id'],
      ]) {
        await expectError(await gw.fetch(`/v1/callbacks/deliveries?${query}`, { key }), op, {
          status: 400,
          param,
          ...limited,
        });
      }
    });

    it('POST /v1/callbacks/deliveries/{delivery_id}/redeliver: unknown 404, malformed 400', async () => {
      const op = 'POST /v1/callbacks/deliveries/{delivery_id}/redeliver';
      const redeliver = (id: string) =>
        gw.fetch(`/v1/callbacks/deliveries/${id}/redeliver`, { method: 'POST', key });
      await expectError(await redeliver('msg_nope'), op, {
        status: 404,
        code: 'delivery_not_found',
        param: 'delivery_id',
        ...limited,
      });
      await expectError(await redeliver('nope'), op, {
        status: 400,
        param: 'delivery_id',
        ...limited,
      });
    });
  });
});
