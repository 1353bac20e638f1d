import { describe, expect, it } from 'vitest';
import { digestsEqual, generateApiKey, hashApiKey } from '../../src/keys/key-format.js';
import { createKeyService } from '../../src/keys/keys.js';
import { TtlLru } from '../../src/keys/lru.js';

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
