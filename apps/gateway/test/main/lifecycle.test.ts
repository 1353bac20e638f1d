import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/config.js';
import { startGateway } from '../../src/index.js';
import { createLogger } from '../../src/observability/logger.js';
import { startTestGateway } from '../support/index.js';

/** A promise with its resolver, so a test controls exactly when a route finishes. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((r) => {
    open = r;
  });
  return { open, opened };
}

describe('drain', () => {
  it('finishes in-flight requests and open streams, then stops accepting', async () => {
    const slow = gate();
    const streamGate = gate();
    const arrived = gate();
    const gw = await startTestGateway({
      simulator: false,
      routes: [
        (app) => {
          app.get('/v1/test/slow', async (c) => {
            arrived.open();
            await slow.opened;
            return c.json({ done: true });
          });
          app.get('/v1/test/stream', () => {
            const enc = new TextEncoder();
            const body = new ReadableStream<Uint8Array>({
              async start(controller) {
                controller.enqueue(enc.encode('first;'));
                await streamGate.opened;
                controller.enqueue(enc.encode('last'));
                controller.close();
              },
            });
            return new Response(body, { headers: { 'content-type': 'text/plain' } });
          });
        },
      ],
    });
    const { key } = await gw.createKey();

    // Readiness flips as soon as draining starts.
    expect((await gw.fetch('/readyz')).status).toBe(200);

    const slowRes = gw.fetch('/v1/test/slow', { key });
    const streamRes = await gw.fetch('/v1/test/stream', { key });
    const reader = streamRes.body!.getReader();
    const dec = new TextDecoder();
    expect(dec.decode((await reader.read()).value)).toBe('first;');
    await arrived.opened;

    const closed = gw.close(10_000);
    let closedYet = false;
    void closed.then(() => {
      closedYet = true;
    });
    await new Promise((r) => setTimeout(r, 50));
    expect(gw.services.lifecycle.draining).toBe(true);
    expect(closedYet).toBe(false);
    // New connections are refused while the old ones finish.
    await expect(
      fetch(`${gw.url}/healthz`, { headers: { connection: 'close' } }),
    ).rejects.toThrow();

    slow.open();
    expect(await (await slowRes).json()).toEqual({ done: true });
    streamGate.open();
    let rest = '';
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      rest += dec.decode(value);
    }
    expect(rest).toBe('last');
    await closed;
    expect(closedYet).toBe(true);
  });

  it('answers /readyz with 503 while draining', async () => {
    const gw = await startTestGateway({ simulator: false });
    try {
      gw.services.lifecycle.draining = true;
      const res = await gw.fetch('/readyz');
      expect(res.status).toBe(503);
      expect(await res.json()).toEqual({ status: 'draining' });
    } finally {
      gw.services.lifecycle.draining = false;
      await gw.close();
    }
  });
});

describe('first start without configuration', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mg-boot-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  // Two starts on a fresh on-disk PGlite directory (initdb runs in a child process): a hang guard, not a timing.
  it('starts the simulator (demo mode, first log line), generates the admin key once, and keeps it', {
    timeout: 120_000,
  }, async () => {
    const lines: Record<string, unknown>[] = [];
    const log = createLogger({ write: (l) => lines.push(JSON.parse(l)) });
    const env = { MODELGATE_DATA_DIR: dir, HOST: '127.0.0.1', PORT: '0' };
    const gw = await startGateway({ env, log });
    let key: string;
    try {
      expect(String(lines[0]?.msg)).toContain('demo mode');
      expect(lines[0]?.simulator_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(gw.services.config.providers.openai.baseUrl).toBe(
        `${lines[0]?.simulator_url}/openai/v1`,
      );

      key = gw.adminKey!;
      expect(key).toMatch(/^sk-[0-9A-Za-z]{48}$/);
      const file = join(dir, 'admin-key');
      expect(readFileSync(file, 'utf8').trim()).toBe(key);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      const announced = lines.filter((l) => String(l.msg).includes(key));
      expect(announced).toHaveLength(1);
      // Only the hash is stored.
      const rows = await gw.services.db
        .selectFrom('api_keys')
        .select(['key_hash', 'role'])
        .execute();
      expect(rows).toHaveLength(1);
      expect(rows[0]!.role).toBe('admin');
      expect(rows[0]!.key_hash).not.toContain(key.slice(3));
      const res = await fetch(`${gw.url}/v1/token`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'first', quota: 1 }),
      });
      expect(res.status).toBe(200);
    } finally {
      await gw.close();
    }

    // Second start on the same data dir: no new key, the old one still works.
    lines.length = 0;
    const again = await startGateway({ env, log });
    try {
      expect(again.adminKey).toBeNull();
      expect(lines.some((l) => String(l.msg).includes('generated'))).toBe(false);
      const res = await fetch(`${again.url}/v1/dashboard/billing/credit_grants`, {
        headers: { authorization: `Bearer ${key}` },
      });
      expect(res.status).toBe(200);
    } finally {
      await again.close();
    }
  });
});

describe('configuration', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mg-config-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const writeYaml = (name: string, text: string) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };

  it('reads defaults and environment variables', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      port: 8080,
      cdnPort: 8081,
      databaseUrl: null,
      redisUrl: null,
      demoMode: true,
      leaseIdleMs: 5_000,
    });
    expect(c.dataDir.endsWith('.modelgate')).toBe(true);
    expect(loadConfig({ MODELGATE_LEASE_IDLE_MS: '0' }).leaseIdleMs).toBe(0);
    const d = loadConfig({
      PORT: '9000',
      OPENAI_API_KEY: 'k',
      OPENAI_BASE_URL: 'http://127.0.0.1:1/v1/',
    });
    expect(d).toMatchObject({ port: 9000, cdnPort: 9001, demoMode: false });
    expect(d.providers.openai).toEqual({
      apiKey: 'k',
      baseUrl: 'http://127.0.0.1:1/v1',
      configured: true,
    });
    expect(d.providers.anthropic.configured).toBe(false);
  });

  it('refuses bad values with a ConfigError naming the variable', () => {
    const bad: [Record<string, string>, RegExp][] = [
      [{ PORT: 'eighty' }, /PORT/],
      [{ DATABASE_URL: 'mysql://x' }, /DATABASE_URL/],
      [{ LOG_LEVEL: 'loud' }, /LOG_LEVEL/],
      [{ MODELGATE_LEASE_IDLE_MS: 'soon' }, /MODELGATE_LEASE_IDLE_MS/],
      [{ MODELGATE_REDIS_TIMEOUT_MS: '0' }, /MODELGATE_REDIS_TIMEOUT_MS must be at least 1/],
      [{ GATEWAY_ADMIN_KEY: 'short' }, /GATEWAY_ADMIN_KEY/],
      [{ OPENAI_BASE_URL: '/openai/v1' }, /OPENAI_BASE_URL must be an absolute http\(s\) URL/],
      [{ ANTHROPIC_BASE_URL: 'ftp://x' }, /ANTHROPIC_BASE_URL/],
      [{ KLING_BASE_URL: 'not a url' }, /KLING_BASE_URL/],
      [{ MODELGATE_CONFIG: join(dir, 'missing.yaml') }, /cannot read/],
      [{ MODELGATE_CONFIG: writeYaml('broken.yaml', 'providers: [') }, /not valid YAML/],
      [{ MODELGATE_CONFIG: writeYaml('typo.yaml', 'provders: {}\n') }, /provders/],
      [
        { MODELGATE_CONFIG: writeYaml('model.yaml', 'models:\n  - id: x\n    deployments: []\n') },
        /models\.0\.deployments/,
      ],
    ];
    for (const [env, message] of bad) {
      expect(() => loadConfig(env), JSON.stringify(env)).toThrow(ConfigError);
      expect(() => loadConfig(env)).toThrow(message);
    }
  });

  it('fails the start with a ConfigError when a feature refuses its settings', async () => {
    await expect(
      startTestGateway({ simulator: false, env: { MODELGATE_CALLBACK_TIMEOUT: 'soon' } }),
    ).rejects.toThrow(ConfigError);
  });

  it('accepts the example config file', () => {
    const c = loadConfig({
      MODELGATE_CONFIG: new URL('../../modelgate.example.yaml', import.meta.url).pathname,
    });
    expect(c.file.providers).toBeTruthy();
    expect(c.demoMode).toBe(false);
  });
});
