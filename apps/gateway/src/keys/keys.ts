/**
 * API keys: creation, the cached lookup on the hot path, revocation and the bootstrap admin key.
 * A request authenticates from an in-process LRU (5 s TTL) and touches the database only on a miss;
 * any change made through this service drops the affected cache entries at once. A key in use is
 * re-read in the background during the last fifth of its entry's life, so its requests never wait
 * on the database once it is cached, and what they see is still never older than the TTL.
 */
import type { BudgetSetting } from '@modelgate/core';
import { type Kysely, type Selectable, sql, type Transaction } from 'kysely';
import { budgetChange, type StoredBudget, storedBudget } from '../budgets/index.js';
import type { ApiKeysTable } from '../db/account-tables.js';
import type { DatabaseKind } from '../db/database.js';
import type { DB } from '../db/schema.js';
import { unauthorized } from '../errors/api-error.js';
import { digestsEqual, generateApiKey, hashApiKey, keyPrefixOf } from './key-format.js';
import { TtlLru } from './lru.js';

/** What a route sees as `c.get('key')`. Times are unix seconds. */
export interface AuthKey {
  id: number;
  name: string;
  role: 'admin' | 'user';
  models: string[] | null;
  rpm: number | null;
  tpm: number | null;
  expiresAt: number | null;
}

/** A key as stored (without the secret). */
export interface KeyRecord extends AuthKey {
  quota: number | null;
  used: number;
  revokedAt: number | null;
  createdAt: number;
  keyPrefix: string;
  /** The key's own budget; null without one. */
  budget: StoredBudget | null;
  /** The team whose budget the key's spend also counts against. */
  teamId: number | null;
}

export interface CreateKeyInput {
  name: string;
  role?: 'admin' | 'user';
  /** Units; null = unlimited. */
  quota: number | null;
  models?: string[] | null;
  rpm?: number | null;
  tpm?: number | null;
  expiresAt?: number | null;
  /** Use this secret instead of generating one (bootstrap admin from env). */
  secret?: string;
  budget?: BudgetSetting | null;
  teamId?: number | null;
}

/** Settings an update may change; an absent field stays as it is, null clears it. */
export interface KeyChange {
  name?: string;
  quota?: number;
  models?: string[] | null;
  rpm?: number | null;
  tpm?: number | null;
  expiresAt?: number | null;
  /** A new amount keeps the period's spend; a new period (or none) starts from zero. */
  budget?: BudgetSetting | null;
  teamId?: number | null;
}

export interface KeyService {
  /**
   * Create a key; returns the secret (shown once) and the stored record.
   * @example const { key, record } = await keys.create({ name: 'ci', quota: 5_000_000 });
   */
  create(input: CreateKeyInput, trx?: Transaction<DB>): Promise<{ key: string; record: KeyRecord }>;
  /** Resolve a presented secret; throws ApiError 401 (invalid_api_key | expired_api_key | revoked_api_key). */
  authenticate(secret: string): Promise<AuthKey>;
  get(id: number, trx?: Transaction<DB>): Promise<KeyRecord | undefined>;
  /** Revoke; takes effect at once in this process, within the cache TTL in others. */
  revoke(id: number, trx?: Transaction<DB>): Promise<boolean>;
  /**
   * Change the given settings of a key that is not revoked; a new quota only if it covers `used`.
   * Takes effect at once in this process, within the cache TTL in others.
   * @returns the changed record; `undefined` when no key matched those conditions (the caller
   *   reads the key to tell why).
   * @example await keys.update(42, { quota: 10_000_000, rpm: 120 });
   */
  update(id: number, change: KeyChange, trx?: Transaction<DB>): Promise<KeyRecord | undefined>;
  /** Forget cached entries of a key after an outside change. */
  invalidate(id: number): void;
}

export interface KeyServiceOptions {
  cacheSize?: number;
  cacheTtlMs?: number;
  now?: () => number;
}

/** A row of `api_keys` as the database returns it. */
export type KeyRow = Selectable<ApiKeysTable>;

export function rowToRecord(r: KeyRow): KeyRecord {
  return {
    id: Number(r.id),
    name: r.name,
    role: r.role,
    models: r.models ?? null,
    rpm: r.rpm,
    tpm: r.tpm,
    expiresAt: r.expires_at,
    quota: r.quota,
    used: Number(r.used),
    revokedAt: r.revoked_at,
    createdAt: r.created_at,
    keyPrefix: r.key_prefix,
    budget: storedBudget(r),
    teamId: r.team_id === null ? null : Number(r.team_id),
  };
}

const nowSeconds = (now: () => number) => Math.floor(now() / 1000);

/** Longest secret used as its own cache key (issued keys are 51 characters). */
const MAX_SECRET_CACHE_KEY = 128;

/**
 * A cached lookup: the record (null: no such key) and, for a usable record, what routes see;
 * when it was read, and whether a background re-read is under way.
 */
type CacheEntry = {
  hash: string;
  record: KeyRecord | null;
  auth: AuthKey | null;
  loadedAt: number;
  refreshing: boolean;
};

function authKeyOf(r: KeyRecord): AuthKey {
  return Object.freeze({
    id: r.id,
    name: r.name,
    role: r.role,
    models: r.models === null ? null : (Object.freeze([...r.models]) as string[]),
    rpm: r.rpm,
    tpm: r.tpm,
    expiresAt: r.expiresAt,
  });
}

export function createKeyService(db: Kysely<DB>, options: KeyServiceOptions = {}): KeyService {
  const now = options.now ?? Date.now;
  // Keyed by the secret itself, so a cached request does not hash: the secret is in this process's
  // memory for the request anyway, and the entry dies with the TTL. A secret longer than any key
  // we issue is keyed by its hash instead, so junk Authorization headers (up to the header limit,
  // each cached as "no such key") cannot make 10,000 entries cost more than short strings.
  const cacheKeyOf = (secret: string) =>
    secret.length <= MAX_SECRET_CACHE_KEY ? secret : hashApiKey(secret);
  const cacheTtlMs = options.cacheTtlMs ?? 5_000;
  const cache = new TtlLru<string, CacheEntry>(options.cacheSize ?? 10_000, cacheTtlMs, now);
  const refreshAfterMs = cacheTtlMs * 0.8;

  const load = async (hash: string): Promise<KeyRecord | null> => {
    const row = await db
      .selectFrom('api_keys')
      .selectAll()
      .where('key_hash', '=', hash)
      .executeTakeFirst();
    // The index lookup already matched; the constant-time compare keeps the final decision free of
    // data-dependent timing should the lookup ever change (e.g. to a prefix index).
    if (!row || !digestsEqual(row.key_hash, hash)) return null;
    return rowToRecord(row);
  };

  const entryOf = (hash: string, record: KeyRecord | null): CacheEntry => ({
    hash,
    record,
    auth: record ? authKeyOf(record) : null,
    loadedAt: now(),
    refreshing: false,
  });

  /**
   * Re-reads a cached key off the request path. The result replaces the entry only if the cache
   * still holds that same entry: a change made here meanwhile (revoke, update) dropped it, and a
   * read that started before the change must not bring the old record back.
   */
  const refresh = (cacheKey: string, entry: CacheEntry) => {
    entry.refreshing = true;
    load(entry.hash).then(
      (record) => {
        if (cache.get(cacheKey) === entry) cache.set(cacheKey, entryOf(entry.hash, record));
      },
      () => {
        // No retry from here (with the database down, every hit would start one): the entry
        // expires at its TTL as usual, and the next request reads on its own path and meets the
        // database error there.
      },
    );
  };

  return {
    async create(input, trx) {
      const key = input.secret ?? generateApiKey();
      const hash = hashApiKey(key);
      const row = await (trx ?? db)
        .insertInto('api_keys')
        .values({
          key_hash: hash,
          key_prefix: keyPrefixOf(key),
          name: input.name,
          role: input.role ?? 'user',
          quota: input.quota,
          models: input.models ? JSON.stringify(input.models) : null,
          rpm: input.rpm ?? null,
          tpm: input.tpm ?? null,
          expires_at: input.expiresAt ?? null,
          created_at: nowSeconds(now),
          budget_amount: input.budget?.amount ?? null,
          budget_period: input.budget?.period ?? null,
          team_id: input.teamId ?? null,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      cache.deleteWhere((e) => e.hash === hash);
      return { key, record: rowToRecord(row) };
    },

    async authenticate(secret) {
      const cacheKey = cacheKeyOf(secret);
      let entry = cache.get(cacheKey);
      if (!entry) {
        const hash = hashApiKey(secret);
        entry = entryOf(hash, await load(hash));
        cache.set(cacheKey, entry);
      } else if (!entry.refreshing && now() - entry.loadedAt >= refreshAfterMs) {
        refresh(cacheKey, entry);
      }
      const { record: r, auth } = entry;
      if (!r || !auth) throw unauthorized('Invalid API key.', 'invalid_api_key');
      if (r.revokedAt !== null)
        throw unauthorized('This API key has been revoked.', 'revoked_api_key');
      if (r.expiresAt !== null && r.expiresAt <= nowSeconds(now)) {
        throw unauthorized('This API key has expired.', 'expired_api_key');
      }
      // The same frozen object for every request of this entry: nothing to build per request.
      return auth;
    },

    async get(id, trx) {
      const row = await (trx ?? db)
        .selectFrom('api_keys')
        .selectAll()
        .where('id', '=', id)
        .executeTakeFirst();
      return row ? rowToRecord(row) : undefined;
    },

    async revoke(id, trx) {
      const res = await (trx ?? db)
        .updateTable('api_keys')
        .set({ revoked_at: nowSeconds(now) })
        .where('id', '=', id)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      cache.deleteWhere((e) => e.record?.id === id);
      return Number(res.numUpdatedRows) > 0;
    },

    async update(id, change, trx) {
      let update = (trx ?? db)
        .updateTable('api_keys')
        .set({
          name: change.name,
          quota: change.quota,
          models:
            change.models === undefined
              ? undefined
              : change.models === null
                ? null
                : JSON.stringify(change.models),
          rpm: change.rpm,
          tpm: change.tpm,
          expires_at: change.expiresAt,
          team_id: change.teamId,
          ...budgetChange(change.budget),
        })
        .where('id', '=', id)
        .where('revoked_at', 'is', null);
      if (change.quota !== undefined) update = update.where('used', '<=', change.quota);
      const row = await update.returningAll().executeTakeFirst();
      cache.deleteWhere((e) => e.record?.id === id);
      return row ? rowToRecord(row) : undefined;
    },

    invalidate(id) {
      cache.deleteWhere((e) => e.record?.id === id);
    },
  };
}

export interface BootstrapResult {
  /** The generated secret when one was created now (print it once); null otherwise. */
  generatedKey: string | null;
  adminKeyId: number;
}

/**
 * Make sure an admin key exists. With `configuredKey` (GATEWAY_ADMIN_KEY) that key is registered if
 * new; without it, the first start generates one. Two instances starting together on PostgreSQL
 * serialize on an advisory lock, so exactly one key is generated.
 */
export async function ensureBootstrapAdmin(
  db: Kysely<DB>,
  kind: DatabaseKind,
  keys: KeyService,
  configuredKey: string | null,
): Promise<BootstrapResult> {
  return db.transaction().execute(async (trx) => {
    if (kind === 'postgres') {
      await sql`select pg_advisory_xact_lock(${sql.lit('7233620911287624043')}::bigint)`.execute(
        trx,
      );
    }
    if (configuredKey) {
      const hash = hashApiKey(configuredKey);
      const existing = await trx
        .selectFrom('api_keys')
        .select('id')
        .where('key_hash', '=', hash)
        .executeTakeFirst();
      if (existing) return { generatedKey: null, adminKeyId: Number(existing.id) };
      const { record } = await keys.create(
        { name: 'bootstrap-admin', role: 'admin', quota: null, secret: configuredKey },
        trx,
      );
      return { generatedKey: null, adminKeyId: record.id };
    }
    const admin = await trx
      .selectFrom('api_keys')
      .select('id')
      .where('role', '=', 'admin')
      .where('revoked_at', 'is', null)
      .orderBy('id')
      .executeTakeFirst();
    if (admin) return { generatedKey: null, adminKeyId: Number(admin.id) };
    const { key, record } = await keys.create(
      { name: 'bootstrap-admin', role: 'admin', quota: null },
      trx,
    );
    return { generatedKey: key, adminKeyId: record.id };
  });
}
