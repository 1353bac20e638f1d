// /v1/teams: create, list (cursor pages), get (keys count, budget state), change, delete (409
// while it has keys); every change audited; a team's budget binds its keys.
import { zDeletedTeam, zTeam, zTeamList } from '@modelgate/core/zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, expectOk, type Json } from '../contract/support.js';
import { startTestGateway, type TestGateway } from '../support/index.js';

describe('/v1/teams', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway();
  });
  afterAll(() => gw?.close());

  const admin = (path: string, init: RequestInit & { json?: unknown } = {}) =>
    gw.fetch(path, { ...init, key: gw.adminKey });
  const create = async (json: Json) =>
    expectOk(await admin('/v1/teams', { method: 'POST', json }), 'POST /v1/teams', zTeam);

  it('creates, reads, changes and deletes a team, each change audited', async () => {
    const team = await create({ name: 'research', budget: { amount: 3_000_000, period: 'month' } });
    expect(team).toMatchObject({ object: 'team', name: 'research', alert_url: null, keys: 0 });
    expect(team.budget).toMatchObject({ amount: 3_000_000, period: 'month', spent: 0 });

    const changed = await expectOk(
      await admin(`/v1/teams/${team.id}`, {
        method: 'PATCH',
        json: { name: 'research-eu', alert_url: 'https://hooks.example.com/budget', budget: null },
      }),
      'PATCH /v1/teams/{team_id}',
      zTeam,
    );
    expect(changed).toMatchObject({ name: 'research-eu', budget: null });
    expect(changed.alert_url).toBe('https://hooks.example.com/budget');

    const gone = await expectOk(
      await admin(`/v1/teams/${team.id}`, { method: 'DELETE' }),
      'DELETE /v1/teams/{team_id}',
      zDeletedTeam,
    );
    expect(gone).toEqual({ object: 'team', id: team.id, deleted: true });
    await expectError(await admin(`/v1/teams/${team.id}`), 'GET /v1/teams/{team_id}', {
      status: 404,
      code: 'team_not_found',
    });

    const audit = (await (await admin('/v1/audit?limit=100')).json()) as Json;
    const entries = (audit.data as Json[])
      .filter((e) => e.target.type === 'team' && e.target.id === String(team.id))
      .reverse();
    expect(entries.map((e) => e.action)).toEqual(['team.create', 'team.update', 'team.delete']);
    expect(entries[1]!.before).toEqual({
      name: 'research',
      alert_url: null,
      budget: { amount: 3_000_000, period: 'month' },
    });
    expect(entries[1]!.after).toEqual({
      name: 'research-eu',
      alert_url: 'https://hooks.example.com/budget',
      budget: null,
    });
  });

  it('counts its keys, refuses to delete while it has any, and its budget binds them', async () => {
    const team = await create({ name: 'shared', budget: { amount: 1, period: 'day' } });
    const token = (await (
      await admin('/v1/token', {
        method: 'POST',
        json: { name: 'member', quota: 1_000_000, team_id: team.id },
      })
    ).json()) as Json;
    const read = await expectOk(
      await admin(`/v1/teams/${team.id}`),
      'GET /v1/teams/{team_id}',
      zTeam,
    );
    expect(read.keys).toBe(1);
    await expectError(
      await admin(`/v1/teams/${team.id}`, { method: 'DELETE' }),
      'DELETE /v1/teams/{team_id}',
      {
        status: 409,
        code: 'team_has_keys',
        param: 'team_id',
      },
    );
    const chat = await gw.fetch('/v1/chat/completions', {
      method: 'POST',
      key: token.key,
      json: { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }], max_tokens: 8 },
    });
    const error = await expectError(chat, 'POST /v1/chat/completions', {
      status: 402,
      code: 'budget_exceeded',
    });
    expect(error.budget).toMatchObject({ scope: 'team', team_id: team.id });
    // Moved out of the team, the key no longer holds the delete back.
    await admin(`/v1/keys/${token.id}`, { method: 'PATCH', json: { team_id: null } });
    expect((await admin(`/v1/teams/${team.id}`, { method: 'DELETE' })).status).toBe(200);
  });

  it('lists teams newest first, a page at a time', async () => {
    const ids = [];
    for (const name of ['p1', 'p2', 'p3']) ids.push((await create({ name })).id);
    const first = await expectOk(await admin('/v1/teams?limit=2'), 'GET /v1/teams', zTeamList);
    expect(first.data.map((t) => t.id)).toEqual([ids[2], ids[1]]);
    expect(first.has_more).toBe(true);
    const second = await expectOk(
      await admin(`/v1/teams?limit=2&after=${first.next_cursor}`),
      'GET /v1/teams',
      zTeamList,
    );
    expect(second.data[0]!.id).toBe(ids[0]);
    expect((await gw.fetch('/v1/teams', { key: (await gw.createKey()).key })).status).toBe(403);
  });

  it('finds teams by part of their name, ignoring case, a page at a time', async () => {
    for (const name of ['Search-Alpha', 'search-beta', 'other', '50%_off']) await create({ name });
    const found = await expectOk(
      await admin('/v1/teams?name=SEARCH-&limit=1'),
      'GET /v1/teams',
      zTeamList,
    );
    expect(found.data.map((t) => t.name)).toEqual(['search-beta']);
    expect(found.has_more).toBe(true);
    const next = await expectOk(
      await admin(`/v1/teams?name=SEARCH-&limit=1&after=${found.next_cursor}`),
      'GET /v1/teams',
      zTeamList,
    );
    expect(next.data.map((t) => t.name)).toEqual(['Search-Alpha']);
    expect(next.has_more).toBe(false);
    // LIKE's own characters match themselves: "%_" finds the one name that has them.
    const literal = await expectOk(
      await admin(`/v1/teams?name=${encodeURIComponent('%_')}`),
      'GET /v1/teams',
      zTeamList,
    );
    expect(literal.data.map((t) => t.name)).toEqual(['50%_off']);
  });
});
