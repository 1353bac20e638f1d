import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ApiError } from '../src/errors/api-error.js';
import { validateBody } from '../src/errors/validate.js';
import { pickRequestId } from '../src/http/middleware/request-id.js';
import { digestsEqual, generateApiKey, hashApiKey } from '../src/keys/key-format.js';
import { createKeyService } from '../src/keys/keys.js';
import { TtlLru } from '../src/keys/lru.js';
import { createMetrics } from '../src/observability/metrics.js';

describe('key format', () => {
  it('generates distinct sk- keys of 48 base62 characters using the whole alphabet', () => {
    const keys = Array.from({ length: 200 }, generateApiKey);
    for (const k of keys) expect(k).toMatch(/^sk-[0-9A-Za-z]{48}$/);
    expect(new Set(keys).size).toBe(keys.length);
    const chars = new Set(keys.join('').slice(3).replace(/sk-/g, ''));
    expect(chars.size).toBe(62);
  });

  it('hashes with SHA-256 and compares digests', () => {
    const h = hashApiKey('sk-abc');
    expect(h).toMatch(/^[0-9a-f]{64}$/);
    expect(digestsEqual(h, hashApiKey('sk-abc'))).toBe(true);
    expect(digestsEqual(h, hashApiKey('sk-abd'))).toBe(false);
    expect(digestsEqual(h, 'ab')).toBe(false);
  });
});

describe('TtlLru', () => {
  it('evicts the least recently used entry and expires entries after the TTL', () => {
    let now = 0;
    const lru = new TtlLru<string, number>(2, 100, () => now);
    lru.set('a', 1);
    lru.set('b', 2);
    expect(lru.get('a')).toBe(1); // a is now most recent
    lru.set('c', 3);
    expect(lru.get('b')).toBeUndefined();
    expect(lru.get('a')).toBe(1);
    now = 150;
    expect(lru.get('a')).toBeUndefined();
  });
});

/** A key service over a stand-in query builder whose lookups are counted and can be held. */
function standInKeys() {
  const record = {
    id: 1,
    key_hash: hashApiKey('sk-x'),
    key_prefix: 'sk-x',
    name: 'n',
    role: 'user',
    quota: 1,
    used: 0,
    models: null,
    rpm: null,
    tpm: null,
    expires_at: null,
    revoked_at: null as number | null,
    created_at: 0,
  };
  const state = { queries: 0, now: 0, hold: null as Promise<void> | null };
  const chain = {
    selectAll: () => chain,
    where: () => chain,
    executeTakeFirst: async () => {
      state.queries++;
      const snapshot = { ...record };
      if (state.hold) await state.hold;
      return snapshot;
    },
  };
  const db = { selectFrom: () => chain } as never;
  const keys = createKeyService(db, { cacheTtlMs: 5_000, now: () => state.now });
  return { record, state, keys };
}

describe('key cache', () => {
  it('serves a hit without the database and sees changes made in this process at once', async () => {
    const { state, keys } = standInKeys();
    const first = await keys.authenticate('sk-x');
    const again = await keys.authenticate('sk-x');
    expect(state.queries).toBe(1);
    // One frozen object per cache entry: routes cannot change what the next request sees.
    expect(again).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    keys.invalidate(1);
    await keys.authenticate('sk-x');
    expect(state.queries).toBe(2);
    // A secret longer than any issued key is cached under its hash: still one lookup, and a
    // refusal is cached like any other.
    const long = `junk-${'y'.repeat(5_000)}`;
    for (let i = 0; i < 2; i++) {
      await expect(keys.authenticate(long)).rejects.toMatchObject({ code: 'invalid_api_key' });
    }
    expect(state.queries).toBe(3);
  });
});

describe('key cache refresh-ahead', () => {
  const settle = () => new Promise((r) => setImmediate(r));

  it('re-reads a key in use in the background, so its requests never wait on the database', async () => {
    const { record, state, keys } = standInKeys();
    await keys.authenticate('sk-x');
    expect(state.queries).toBe(1);
    // Another instance revokes the key; until the TTL this instance may still accept it.
    record.revoked_at = 1;
    state.now = 3_000;
    await keys.authenticate('sk-x');
    expect(state.queries).toBe(1); // young entry: no re-read
    state.now = 4_500;
    await keys.authenticate('sk-x'); // served from the cache, re-read behind it
    await settle();
    expect(state.queries).toBe(2);
    // Past the first read's TTL: answered from the re-read entry, without a lookup of its own.
    state.now = 5_500;
    await expect(keys.authenticate('sk-x')).rejects.toMatchObject({ code: 'revoked_api_key' });
    expect(state.queries).toBe(2);
  });

  it('does not bring back a record that a change made here dropped while the re-read ran', async () => {
    const { state, keys } = standInKeys();
    await keys.authenticate('sk-x');
    let release!: () => void;
    state.hold = new Promise((r) => {
      release = r;
    });
    state.now = 4_500;
    await keys.authenticate('sk-x'); // starts the re-read, which now waits
    keys.invalidate(1); // e.g. an update in this process
    release();
    state.hold = null;
    await settle();
    expect(state.queries).toBe(2);
    await keys.authenticate('sk-x');
    expect(state.queries).toBe(3); // the held re-read was not installed: a fresh lookup
  });

  it('does not retry a failed re-read from the request path; the entry just expires', async () => {
    const { state, keys } = standInKeys();
    await keys.authenticate('sk-x');
    const down = Promise.reject(new Error('database down'));
    down.catch(() => {});
    state.hold = down;
    state.now = 4_200;
    for (let i = 0; i < 5; i++) {
      await keys.authenticate('sk-x'); // still served from the cache
      await settle(); // let the failed re-read finish before the next hit
    }
    expect(state.queries).toBe(2); // one re-read, not one per hit
    state.hold = null;
    state.now = 5_000;
    await keys.authenticate('sk-x'); // expired: read on the request's own path
    expect(state.queries).toBe(3);
  });

  it('lets an entry nobody used near its end expire as before', async () => {
    const { state, keys } = standInKeys();
    await keys.authenticate('sk-x');
    state.now = 5_000;
    await keys.authenticate('sk-x');
    expect(state.queries).toBe(2);
  });
});

describe('metrics', () => {
  it('renders counters, gauges and cumulative histograms in Prometheus text format', () => {
    const m = createMetrics();
    const c = m.counter('mg_test_total', 'A test\ncounter');
    c.inc({ route: '/a"b' });
    c.inc({ route: '/a"b' }, 2);
    expect(m.counter('mg_test_total', 'again')).toBe(c);
    m.gauge('mg_g', 'gauge').set(undefined, 5);
    const h = m.histogram('mg_h_seconds', 'hist', [0.1, 1]);
    h.observe({ r: 'x' }, 0.05);
    h.observe({ r: 'x' }, 0.5);
    h.observe({ r: 'x' }, 5);
    const text = m.render();
    expect(text).toContain('# HELP mg_test_total A test\\ncounter');
    expect(text).toContain('mg_test_total{route="/a\\"b"} 3');
    expect(text).toContain('mg_g 5');
    expect(text).toContain('mg_h_seconds_bucket{r="x",le="0.1"} 1');
    expect(text).toContain('mg_h_seconds_bucket{r="x",le="1"} 2');
    expect(text).toContain('mg_h_seconds_bucket{r="x",le="+Inf"} 3');
    expect(text).toContain('mg_h_seconds_sum{r="x"} 5.55');
    expect(() => m.gauge('mg_test_total', 'clash')).toThrow();
    expect(() => c.inc(undefined, -1)).toThrow();
  });
});

describe('validateBody', () => {
  const schema = z
    .object({
      name: z.string().min(1),
      n: z.number().int().max(5),
      nested: z.object({ k: z.enum(['a', 'b']) }).optional(),
    })
    .strict();
  const errorOf = (body: unknown) => {
    try {
      validateBody(schema, body);
    } catch (err) {
      return err as ApiError;
    }
    throw new Error('expected a validation error');
  };

  it('names the field and classifies the problem', () => {
    expect(errorOf({ n: 1 })).toMatchObject({ status: 400, param: 'name', code: 'missing_field' });
    expect(errorOf({ name: 1, n: 1 })).toMatchObject({ param: 'name', code: 'invalid_type' });
    expect(errorOf({ name: 'a', n: 9 })).toMatchObject({ param: 'n', code: 'out_of_range' });
    expect(errorOf({ name: 'a', n: 1, extra: true })).toMatchObject({
      param: 'extra',
      code: 'unknown_field',
    });
    expect(errorOf({ name: 'a', n: 1, nested: { k: 'c' } })).toMatchObject({
      param: 'nested.k',
      code: 'invalid_value',
    });
    expect(errorOf(null)).toBeInstanceOf(ApiError);
    expect(validateBody(schema, { name: 'a', n: 2 })).toEqual({ name: 'a', n: 2 });
  });
});

describe('request ids', () => {
  it('keeps sane ids and replaces the rest', () => {
    expect(pickRequestId('abc-123_x.y:z')).toBe('abc-123_x.y:z');
    expect(pickRequestId('x'.repeat(129))).toMatch(/^req_/);
    expect(pickRequestId('<script>')).toMatch(/^req_/);
    expect(pickRequestId(undefined)).toMatch(/^req_/);
  });
});
