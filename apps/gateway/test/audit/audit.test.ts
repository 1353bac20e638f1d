/**
 * The audit log: every administrative change through the API leaves one entry, written with the
 * change (a refused change leaves none), naming who, what and when with the values before and
 * after, never a secret; administrators list it, nobody edits it.
 */
import { zAuditEntryList } from '@modelgate/core/zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eachDatabase, startTestGateway, type TestGateway } from '../support/index.js';

type Json = Record<string, unknown>;

describe.each(eachDatabase())('audit log on $name', (database) => {
  let gw: TestGateway;
  const body = async (res: Response) => (await res.json()) as Json;
  const admin = (path: string, init: RequestInit & { json?: unknown } = {}) =>
    gw.fetch(path, { ...init, key: gw.adminKey });
  const audit = async (query = '') => {
    const res = await admin(`/v1/audit${query}`);
    expect(res.status).toBe(200);
    const page = await body(res);
    expect(zAuditEntryList.safeParse(page).success).toBe(true);
    return page.data as Json[];
  };

  beforeAll(async () => {
    gw = await startTestGateway({ database });
  });
  afterAll(() => gw?.close());

  it('records a key created, changed and revoked, with who, the request and the values', async () => {
    const created = await admin('/v1/token', {
      method: 'POST',
      headers: { 'x-request-id': 'req_audit_create' },
      json: { name: 'audited', quota: 5, models: ['gpt-4o-mini'] },
    });
    expect(created.status).toBe(200);
    const token = await body(created);
    const id = token.id as number;
    const adminId = (await body(await admin('/v1/keys?limit=100'))).data as Json[];
    const adminKeyId = adminId.find((k) => k.role === 'admin')!.id;

    const patched = await admin(`/v1/keys/${id}`, {
      method: 'PATCH',
      headers: { 'x-request-id': 'req_audit_patch' },
      json: { quota: 10, rpm: 60, name: 'audited' },
    });
    expect(patched.status).toBe(200);
    expect((await admin(`/v1/keys/${id}/revoke`, { method: 'POST' })).status).toBe(200);

    const entries = await audit(`?key_id=${id}`);
    expect(entries.map((e) => e.action)).toEqual(['key.revoke', 'key.update', 'key.create']);
    const [revoke, update, create] = entries as [Json, Json, Json];
    expect(create).toMatchObject({
      object: 'audit_entry',
      actor_key_id: adminKeyId,
      request_id: 'req_audit_create',
      target: { type: 'key', id: String(id) },
      before: null,
      after: { name: 'audited', role: 'user', quota: 5, models: ['gpt-4o-mini'] },
    });
    // Only what changed: the unchanged name is not in the update's entry.
    expect(update).toMatchObject({
      request_id: 'req_audit_patch',
      before: { quota: 5, rpm: null },
      after: { quota: 10, rpm: 60 },
    });
    expect(Object.keys(update.after as Json).sort()).toEqual(['quota', 'rpm']);
    expect(revoke).toMatchObject({ before: { revoked_at: null } });
    expect(typeof (revoke.after as Json).revoked_at).toBe('number');
    // Never a secret: not the key's, not its callback secret.
    const text = JSON.stringify(entries);
    expect(text).not.toContain(token.key as string);
    expect(text).not.toContain(token.callback_secret as string);
  });

  it('leaves no entry for a change that was refused', async () => {
    const { id } = await gw.createKey({ name: 'refused', quota: 1_000 });
    const before = (await audit()).length;
    // A revoked key cannot change: 409, and the log is as it was.
    await admin(`/v1/keys/${id}/revoke`, { method: 'POST' });
    const after = (await audit()).length;
    expect(after).toBe(before + 1);
    const refused = await admin(`/v1/keys/${id}`, { method: 'PATCH', json: { rpm: 5 } });
    expect(refused.status).toBe(409);
    expect((await admin(`/v1/keys/${id}/revoke`, { method: 'POST' })).status).toBe(200);
    expect((await audit()).length).toBe(after);
  });

  it("records a key's callback secret rotation by that key, without the secret", async () => {
    const { key, id } = await gw.createKey({ name: 'rotator', quota: 1_000 });
    const res = await gw.fetch('/v1/callbacks/secret', {
      method: 'POST',
      key,
      json: { grace_period_seconds: 60 },
    });
    expect(res.status).toBe(200);
    const { secret } = await body(res);
    const [entry] = await audit('?action=callback_secret.rotate');
    expect(entry).toMatchObject({
      actor_key_id: id,
      target: { type: 'callback_secret', id: String(id) },
      after: { grace_period_seconds: 60 },
    });
    expect(JSON.stringify(entry)).not.toContain(secret as string);
  });

  it('is for administrators, pages newest first, and has no operation that edits it', async () => {
    const { key } = await gw.createKey({ name: 'reader', quota: 1_000 });
    expect((await gw.fetch('/v1/audit', { key })).status).toBe(403);
    const all = await audit();
    const first = await body(await admin('/v1/audit?limit=1'));
    expect((first.data as Json[])[0]?.id).toBe(all[0]?.id);
    const second = await body(await admin(`/v1/audit?limit=1&after=${first.next_cursor}`));
    expect((second.data as Json[])[0]?.id).toBe(all[1]?.id);
    expect((await admin('/v1/audit?after=x')).status).toBe(400);
    for (const method of ['POST', 'PATCH', 'DELETE', 'PUT']) {
      expect((await admin('/v1/audit', { method })).status).toBe(405);
    }
  });
});
