// SIGKILL the gateway under a steady load of chats, start it again on the same database and data
// directory: every chat the client saw complete is charged (its usage row is there), nothing the
// dead instance reserved stays charged, and `ledger check` reports difference 0.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase } from '../../src/db/database.js';
import { generateApiKey } from '../../src/keys/key-format.js';
import {
  buildGatewayMain,
  type ChildGateway,
  freePort,
  runGatewayToExit,
  startChildGateway,
} from '../support/child-gateway.js';
import { eachDatabase, freshDatabase } from '../support/index.js';

let built: Awaited<ReturnType<typeof buildGatewayMain>>;
beforeAll(async () => {
  built = await buildGatewayMain();
}, 120_000);
afterAll(() => built?.cleanup());

/** One chat; resolves with its request id when the client received the whole answer. */
async function chat(url: string, key: string, stream: boolean, id: number): Promise<string | null> {
  try {
    const res = await fetch(`${url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        model: id % 3 === 0 ? 'claude-haiku-4-5' : 'gpt-4o-mini',
        messages: [{ role: 'user', content: `crash ledger ${id}` }],
        max_tokens: 64,
        stream,
      }),
    });
    const text = await res.text();
    if (res.status !== 200) return null;
    if (stream && !text.includes('data: [DONE]')) return null;
    return res.headers.get('x-request-id');
  } catch {
    return null; // the instance died under this request
  }
}

const runCheck = (env: Record<string, string>) =>
  runGatewayToExit(built.main, ['ledger', 'check'], env);

describe.each(eachDatabase())('the ledger across a SIGKILL on $name', (database) => {
  let dataDir: string;
  let fresh: Awaited<ReturnType<typeof freshDatabase>>;
  let child: ChildGateway | null = null;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'mg-ledger-'));
    fresh = await freshDatabase(database);
  });
  afterAll(async () => {
    child?.process.kill('SIGKILL');
    await fresh?.drop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('charges every answered chat and returns every reservation', {
    timeout: 120_000,
  }, async () => {
    const adminKey = generateApiKey();
    const env: Record<string, string> = {
      PORT: String(await freePort()),
      CDN_PORT: String(await freePort()),
      GATEWAY_ADMIN_KEY: adminKey,
      MODELGATE_DATA_DIR: dataDir,
      ...(fresh.databaseUrl ? { DATABASE_URL: fresh.databaseUrl } : {}),
    };
    child = await startChildGateway(built.main, env);
    const createKey = async (quota: number) => {
      const res = await fetch(`${child!.url}/v1/token`, {
        method: 'POST',
        headers: { authorization: `Bearer ${adminKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: `ledger ${quota}`, quota }),
      });
      return ((await res.json()) as { key: string }).key;
    };
    // Quotas in units: one large (leased) and one that runs out, reserved exactly near its limit.
    const keys = [await createKey(1_000_000_000), await createKey(30_000)];

    const answered: string[] = [];
    let n = 0;
    let killed = false;
    const worker = async () => {
      while (!killed) {
        const id = n++;
        const rid = await chat(child!.url, keys[id % 2]!, id % 2 === 0, id);
        if (rid && !killed) answered.push(rid);
      }
    };
    const workers = Array.from({ length: 8 }, worker);
    // Kill once answers are flowing, in the middle of the load.
    while (answered.length < 150) await new Promise((r) => setTimeout(r, 20));
    child.process.kill('SIGKILL');
    killed = true;
    await child.exited;
    await Promise.all(workers);

    child = await startChildGateway(built.main, env);
    child.process.kill('SIGTERM');
    expect((await child.exited).code).toBe(0);
    child = null;

    const check = await runCheck(env);
    expect(check.out).toContain('difference 0');
    expect(check.code).toBe(0);

    const db = await createDatabase({
      databaseUrl: fresh.databaseUrl,
      dataDir: fresh.databaseUrl ? 'memory://' : join(dataDir, 'db'),
    });
    try {
      const rows = await db.db
        .selectFrom('usage')
        .select(['request_id', 'units'])
        .where('kind', '=', 'text')
        .execute();
      const charged = new Map(rows.map((r) => [r.request_id, Number(r.units)]));
      const missing = answered.filter((rid) => !(charged.get(rid)! > 0));
      expect(missing).toEqual([]);
      expect(answered.length).toBeGreaterThanOrEqual(150);
    } finally {
      await db.close();
    }
  });
});
