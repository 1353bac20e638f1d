/**
 * The operator's side: key administration (list, inspect, revoke) and usage reports, against a
 * real gateway on each database. Figures are checked against the ledger (the key's `used`) and
 * against the usage the chat responses themselves reported.
 */
import { zApiKey, zApiKeyList, zUsageRecordList, zUsageReport } from '@modelgate/core/zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eachDatabase, startTestGateway, type TestGateway } from '../support/index.js';

type Json = Record<string, unknown>;

describe.each(eachDatabase())('operators on $name', (database) => {
  let gw: TestGateway;
  const body = async (res: Response) => (await res.json()) as Json;
  const admin = (path: string, init: RequestInit & { json?: unknown } = {}) =>
    gw.fetch(path, { ...init, key: gw.adminKey });
  const chatInit = (key: string) => ({
    method: 'POST',
    key,
    json: { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }], max_tokens: 8 },
  });
  const chat = async (key: string) => {
    const res = await gw.fetch('/v1/chat/completions', chatInit(key));
    expect(res.status).toBe(200);
    return (await body(res)).usage as { prompt_tokens: number; completion_tokens: number };
  };
  const expectError = async (res: Response, status: number, code: string, param?: string) => {
    expect(res.status).toBe(status);
    const { error } = (await body(res)) as { error: Json };
    expect(error.code).toBe(code);
    if (param !== undefined) expect(error.param).toBe(param);
  };

  beforeAll(async () => {
    gw = await startTestGateway({ database });
  });
  afterAll(() => gw?.close());

  describe('keys', () => {
    it('lists keys newest first, page by page, without their secrets', async () => {
      const made = [];
      for (const name of ['k1', 'k2', 'k3']) made.push(await gw.createKey({ name, quota: 1_000 }));
      const first = await body(await admin('/v1/keys?limit=2'));
      expect(zApiKeyList.safeParse(first).success).toBe(true);
      const ids = (first.data as Json[]).map((k) => k.id);
      expect(ids).toEqual([made[2]?.id, made[1]?.id]);
      expect(first.has_more).toBe(true);
      const newest = (first.data as Json[])[0] as Json;
      expect(newest).not.toHaveProperty('key');
      expect(made[2]?.key.startsWith(String(newest.key_prefix))).toBe(true);
      expect(newest).toMatchObject({ object: 'api_key', status: 'active', quota: 1_000, used: 0 });

      const second = await body(await admin(`/v1/keys?limit=2&after=${first.next_cursor}`));
      expect((second.data as Json[])[0]?.id).toBe(made[0]?.id);
      await expectError(await admin('/v1/keys?after=nope'), 400, 'invalid_cursor', 'after');
      await expectError(await admin('/v1/keys?limit=101'), 400, 'out_of_range', 'limit');
      await expectError(await admin('/v1/keys?limit=ten'), 400, 'invalid_type', 'limit');
      await expectError(await admin('/v1/keys?stauts=active'), 400, 'unknown_parameter', 'stauts');
    });

    it('filters by state: active, revoked, expired', async () => {
      const revoked = await gw.createKey({ name: 'gone', quota: 1 });
      const expired = await gw.createKey({ name: 'old', quota: 1 });
      await gw.services.keys.revoke(revoked.id);
      await gw.services.db
        .updateTable('api_keys')
        .set({ expires_at: Math.floor(Date.now() / 1000) - 60 })
        .where('id', '=', expired.id)
        .execute();
      const idsWith = async (status: string) =>
        ((await body(await admin(`/v1/keys?status=${status}&limit=100`))).data as Json[]).map(
          (k) => k.id,
        );
      expect(await idsWith('revoked')).toContain(revoked.id);
      expect(await idsWith('expired')).toEqual(expect.arrayContaining([expired.id]));
      const active = await idsWith('active');
      expect(active).not.toContain(revoked.id);
      expect(active).not.toContain(expired.id);
      await expectError(await admin('/v1/keys?status=paused'), 400, 'invalid_value', 'status');
    });

    it('finds keys by part of their name, ignoring case, with % and _ taken literally', async () => {
      const batch = await gw.createKey({ name: 'Nightly-Batch', quota: 1 });
      const percent = await gw.createKey({ name: 'batch 100%', quota: 1 });
      const revoked = await gw.createKey({ name: 'old batch', quota: 1 });
      await gw.services.keys.revoke(revoked.id);
      const idsNamed = async (query: string) =>
        ((await body(await admin(`/v1/keys?limit=100&${query}`))).data as Json[]).map((k) => k.id);
      expect(await idsNamed('name=BATCH')).toEqual([revoked.id, percent.id, batch.id]);
      expect(await idsNamed('name=batch&status=active')).toEqual([percent.id, batch.id]);
      expect(await idsNamed(`name=${encodeURIComponent('%')}`)).toEqual([percent.id]);
      expect(await idsNamed('name=h_b')).toEqual([]);
      const first = await body(await admin('/v1/keys?limit=1&name=batch'));
      expect(first.has_more).toBe(true);
      const second = await body(
        await admin(`/v1/keys?limit=1&name=batch&after=${first.next_cursor}`),
      );
      expect((second.data as Json[]).map((k) => k.id)).toEqual([percent.id]);
      await expectError(await admin('/v1/keys?name='), 400, 'out_of_range', 'name');
    });

    it('shows what a key has spent, as its balance does', async () => {
      const { key, id } = await gw.createKey({ quota: 50_000_000 });
      await chat(key);
      const view = await body(await admin(`/v1/keys/${id}`));
      expect(zApiKey.safeParse(view).success).toBe(true);
      const balance = await body(await gw.fetch('/v1/dashboard/billing/credit_grants', { key }));
      expect(view.used).toBeGreaterThan(0);
      expect(view.used).toBe(Math.round((balance.total_used as number) * 1_000_000));
      expect(view.remaining).toBe(50_000_000 - (view.used as number));
      await expectError(await admin('/v1/keys/abc'), 400, 'invalid_type', 'key_id');
      await expectError(await admin('/v1/keys/987654'), 404, 'key_not_found', 'key_id');
    });

    it('revokes a key for good, idempotently, but never the caller itself', async () => {
      const { key, id } = await gw.createKey({ quota: 1_000 });
      expect((await gw.fetch('/v1/dashboard/billing/credit_grants', { key })).status).toBe(200);
      const revoked = await body(await admin(`/v1/keys/${id}/revoke`, { method: 'POST' }));
      expect(revoked).toMatchObject({ id, status: 'revoked' });
      expect(typeof revoked.revoked_at).toBe('number');
      await expectError(
        await gw.fetch('/v1/dashboard/billing/credit_grants', { key }),
        401,
        'revoked_api_key',
      );
      const again = await body(await admin(`/v1/keys/${id}/revoke`, { method: 'POST' }));
      expect(again.revoked_at).toBe(revoked.revoked_at);

      const adminId = ((await body(await admin('/v1/keys?limit=100'))).data as Json[]).find(
        (k) => k.role === 'admin',
      )?.id;
      await expectError(
        await admin(`/v1/keys/${adminId}/revoke`, { method: 'POST' }),
        409,
        'revoking_own_key',
        'key_id',
      );
      await expectError(
        await admin('/v1/keys/987654/revoke', { method: 'POST' }),
        404,
        'key_not_found',
      );
    });

    it('tops a key up and changes its limits, at once for the next request', async () => {
      const { key, id } = await gw.createKey({ quota: 30, rpm: 1 });
      // Too little quota for a chat, and one request a minute.
      expect((await gw.fetch('/v1/chat/completions', chatInit(key))).status).toBe(402);
      const patch = (json: unknown) => admin(`/v1/keys/${id}`, { method: 'PATCH', json });
      const changed = await body(await patch({ quota: 50_000_000, rpm: null, name: 'topped-up' }));
      expect(zApiKey.safeParse(changed).success).toBe(true);
      expect(changed).toMatchObject({ quota: 50_000_000, rpm: null, name: 'topped-up' });
      expect((await gw.fetch('/v1/chat/completions', chatInit(key))).status).toBe(200);
      expect((await gw.fetch('/v1/chat/completions', chatInit(key))).status).toBe(200);

      const { used } = await body(await admin(`/v1/keys/${id}`));
      expect(used).toBeGreaterThan(0);
      await expectError(
        await patch({ quota: (used as number) - 1 }),
        409,
        'quota_below_used',
        'quota',
      );
      expect((await body(await admin(`/v1/keys/${id}`))).quota).toBe(50_000_000);
      expect(await body(await patch({}))).toMatchObject({ id, quota: 50_000_000 });

      await expectError(await patch({ models: ['gpt-9'] }), 400, 'model_not_found', 'models');
      await expectError(await patch({ expires_at: 1 }), 400, 'out_of_range', 'expires_at');
      await expectError(await patch({ role: 'admin' }), 400, 'unknown_field', 'role');
      await expectError(
        await admin('/v1/keys/987654', { method: 'PATCH', json: { rpm: 5 } }),
        404,
        'key_not_found',
      );
      await gw.services.keys.revoke(id);
      await expectError(await patch({ rpm: 5 }), 409, 'key_revoked');
    });

    it('refuses a normal key on every key operation', async () => {
      const { key, id } = await gw.createKey({ quota: 1_000 });
      for (const [method, path] of [
        ['GET', '/v1/keys'],
        ['GET', `/v1/keys/${id}`],
        ['POST', `/v1/keys/${id}/revoke`],
        ['PATCH', `/v1/keys/${id}`],
      ] as const) {
        await expectError(
          await gw.fetch(path, { method, key, json: method === 'PATCH' ? { rpm: 1 } : undefined }),
          403,
          'admin_key_required',
        );
      }
    });
  });

  describe('usage', () => {
    it("reports a key's requests, tokens and cost, bucket by bucket, matching its ledger", async () => {
      const a = await gw.createKey({ quota: 50_000_000 });
      const b = await gw.createKey({ quota: 50_000_000 });
      const reported = [await chat(a.key), await chat(a.key), await chat(a.key)];
      await chat(b.key);

      const res = await gw.fetch('/v1/usage', { key: a.key });
      expect(res.status).toBe(200);
      const report = await body(res);
      expect(zUsageReport.safeParse(report).success).toBe(true);
      // Seven days back from now, widened to whole days: 8 daily buckets, the last one holds it all.
      const buckets = report.data as Json[];
      expect(buckets).toHaveLength(8);
      expect(buckets.filter((x) => (x.results as Json[]).length > 0)).toHaveLength(1);
      const totals = report.totals as Json;
      expect(totals).toMatchObject({
        requests: 3,
        input_tokens: reported.reduce((n, u) => n + u.prompt_tokens, 0),
        output_tokens: reported.reduce((n, u) => n + u.completion_tokens, 0),
      });
      const ledger = await body(await admin(`/v1/keys/${a.id}`));
      expect(totals.units).toBe(ledger.used);
      expect(totals.cost).toBe((ledger.used as number) / 1_000_000);
    });

    it('lets an administrator split by key and model, and filter', async () => {
      const a = await gw.createKey({ quota: 50_000_000 });
      const b = await gw.createKey({ quota: 50_000_000 });
      await chat(a.key);
      await chat(b.key);
      await chat(b.key);
      const report = await body(await admin('/v1/usage?bucket_width=1h&group_by=key_id,model'));
      const results = (report.data as Json[]).flatMap((x) => x.results as Json[]);
      const ofKey = (id: number) => results.filter((r) => r.key_id === id);
      expect(ofKey(a.id)).toEqual([expect.objectContaining({ requests: 1, model: 'gpt-4o-mini' })]);
      expect(ofKey(b.id)).toEqual([expect.objectContaining({ requests: 2, kind: null })]);

      const one = await body(await admin(`/v1/usage?key_id=${b.id}&model=gpt-4o-mini`));
      expect((one.totals as Json).requests).toBe(2);
      const none = await body(await admin(`/v1/usage?key_id=${b.id}&model=other`));
      expect((none.totals as Json).requests).toBe(0);
    });

    it('lists the records behind the report, and finds one by its x-request-id', async () => {
      const a = await gw.createKey({ quota: 50_000_000 });
      const b = await gw.createKey({ quota: 50_000_000 });
      const res = await gw.fetch('/v1/chat/completions', chatInit(a.key));
      const requestId = res.headers.get('x-request-id');
      const { usage } = (await res.json()) as { usage: Record<string, number> };
      await chat(a.key);
      await chat(b.key);

      const own = await body(await gw.fetch('/v1/usage/records', { key: a.key }));
      expect(zUsageRecordList.safeParse(own).success).toBe(true);
      const records = own.data as Json[];
      expect(records).toHaveLength(2);
      expect(records.every((r) => r.key_id === a.id)).toBe(true);
      expect((records[0]?.id as number) > (records[1]?.id as number)).toBe(true);
      const ledger = await body(await admin(`/v1/keys/${a.id}`));
      expect(records.reduce((n, r) => n + (r.units as number), 0)).toBe(ledger.used);

      const found = await body(await admin(`/v1/usage/records?request_id=${requestId}&kind=text`));
      expect(found.data).toEqual([
        expect.objectContaining({
          key_id: a.id,
          model: 'gpt-4o-mini',
          input_tokens: usage.prompt_tokens,
          output_tokens: usage.completion_tokens,
          request_id: requestId,
          task_id: null,
        }),
      ]);

      const first = await body(await admin(`/v1/usage/records?key_id=${a.id}&limit=1`));
      expect(first.has_more).toBe(true);
      const next = await body(
        await admin(`/v1/usage/records?key_id=${a.id}&limit=1&after=${first.next_cursor}`),
      );
      expect((next.data as Json[])[0]?.id).toBe(records[1]?.id);
      expect(next.has_more).toBe(false);
      await expectError(
        await gw.fetch(`/v1/usage/records?key_id=${b.id}`, { key: a.key }),
        403,
        'admin_key_required',
      );
      await expectError(await admin('/v1/usage/records?kind=audio'), 400, 'invalid_value', 'kind');
      await expectError(await admin('/v1/usage/records?after=x'), 400, 'invalid_cursor', 'after');
    });

    it('keeps a normal key to its own usage and refuses bad ranges in the documented shape', async () => {
      const a = await gw.createKey({ quota: 1_000 });
      const b = await gw.createKey({ quota: 1_000 });
      const get = (query: string) => gw.fetch(`/v1/usage${query}`, { key: a.key });
      await expectError(await get(`?key_id=${b.id}`), 403, 'admin_key_required');
      expect((await get(`?key_id=${a.id}`)).status).toBe(200);
      await expectError(await get('?bucket_width=2h'), 400, 'invalid_value', 'bucket_width');
      await expectError(
        await get('?start_time=200&end_time=100'),
        400,
        'out_of_range',
        'start_time',
      );
      await expectError(
        await get('?bucket_width=1h&start_time=0&end_time=86400000'),
        400,
        'out_of_range',
        'start_time',
      );
      await expectError(await get('?group_by=model,model'), 400, 'invalid_value', 'group_by');
      await expectError(await get('?group_by=colour'), 400, 'invalid_value', 'group_by.0');
      await expectError(await get('?since=1'), 400, 'unknown_parameter', 'since');
    });
  });
});
