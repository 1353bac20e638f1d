/**
 * Configuration: environment variables (docs/design.md#running) plus an optional YAML file (MODELGATE_CONFIG).
 * Everything is validated up front; a bad value is a ConfigError naming the variable or YAML path,
 * and main.ts exits with code 1.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { parseTextModelConfig } from '../models/config.js';
import { type LogLevel, parseLogLevel } from '../observability/logger.js';
import { type ProviderEnv, readProviderEnv } from './providers-env.js';
import { MAX_SINGLE_PUT_BYTES, readStorageEnv, type S3Settings } from './storage-env.js';

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

/**
 * The YAML file. Each top-level section belongs to one feature, which validates its own content:
 * `providers`, `models` → TEXT (src/models/config.ts); `video` → VIDEO; `callbacks` → CB.
 * Unknown top-level keys are refused so typos surface.
 */
export const configFileSchema = z
  .object({
    providers: z.unknown().optional(),
    models: z.unknown().optional(),
    video: z.unknown().optional(),
    callbacks: z.unknown().optional(),
  })
  .strict();

export type ConfigFile = z.infer<typeof configFileSchema>;

export interface Config {
  /** Bind address (HOST, default 0.0.0.0). */
  host: string;
  /** API port (PORT, default 8080; 0 = any free port). */
  port: number;
  /** CDN listener port (CDN_PORT, default PORT+1; 0 when PORT is 0). */
  cdnPort: number;
  /** Public base of stored files (CDN_URL); null = derived from the CDN listener's address at start. */
  cdnUrl: string | null;
  /** MODELGATE_DATA_DIR, default ./.modelgate (PGlite data, stored files, generated admin key). */
  dataDir: string;
  /**
   * The shared object store for files and videos (MODELGATE_S3_URL or S3_*), or null: they stay in
   * `${dataDir}/files`, seen by this instance only.
   */
  s3: S3Settings | null;
  /** DATABASE_URL or null (→ PGlite in dataDir). */
  databaseUrl: string | null;
  /** PGlite location: `${dataDir}/db`, or 'memory://' (tests). */
  pgliteDir: string;
  /** REDIS_URL or null (→ in-memory rate limits). */
  redisUrl: string | null;
  /** Prefix for Redis keys (MODELGATE_REDIS_PREFIX, default "modelgate"). */
  redisPrefix: string;
  /**
   * MODELGATE_REDIS_TIMEOUT_MS, default 250: longest a rate-limit check waits for Redis before this
   * instance answers it from memory (limits/fallback-store.ts).
   */
  redisTimeoutMs: number;
  /** GATEWAY_ADMIN_KEY or null (→ generated on first start). */
  adminKey: string | null;
  logLevel: LogLevel;
  /** MODELGATE_DRAIN_TIMEOUT_MS, default 30000. */
  drainTimeoutMs: number;
  /**
   * MODELGATE_LEASE_IDLE_MS, default 5000: how long an idle key keeps this instance's quota lease
   * (billing.ts). 0 returns it as soon as the key is idle (exact `used` in the database at all
   * times, one database round trip per request for a key used in spaced requests).
   */
  leaseIdleMs: number;
  /** MODELGATE_MAX_UPLOAD_BYTES, default 20 MiB (VIDEO's files route). */
  maxUploadBytes: number;
  /** MODELGATE_MAX_JSON_BYTES, default 1 MiB. */
  maxJsonBytes: number;
  /** MODELGATE_HEADERS_TIMEOUT_MS, default 15000: time a client has to send the request headers. */
  headersTimeoutMs: number;
  /**
   * MODELGATE_REQUEST_TIMEOUT_MS, default 120000: time a client has to send the whole request,
   * body included (a 20 MiB upload needs ≈ 1.4 Mbit/s).
   */
  requestTimeoutMs: number;
  /** Allowed browser origins for /v1 (MODELGATE_CORS_ORIGINS, comma-separated; default `*`). */
  corsOrigins: string | string[];
  /** MODELGATE_CALLBACK_ALLOW_PRIVATE=1. */
  callbackAllowPrivate: boolean;
  /** MODELGATE_CONFIG path, or null. */
  configPath: string | null;
  /** The parsed YAML (empty object without a file). */
  file: ConfigFile;
  /** Provider keys and base URLs from the environment. */
  providers: ProviderEnv;
  /** True when no provider is configured (no provider key in env, no `providers` in YAML). */
  demoMode: boolean;
  /** The in-process simulator's URL in demo mode (set at start), else null. */
  simulatorUrl: string | null;
  /** Raw environment, for feature-specific variables. */
  env: Record<string, string | undefined>;
}

function int(env: Record<string, string | undefined>, name: string, def: number, min = 0): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return def;
  if (!/^\d+$/.test(raw.trim()))
    throw new ConfigError(`${name} must be a non-negative integer (got "${raw}")`);
  const v = Number(raw.trim());
  if (v < min) throw new ConfigError(`${name} must be at least ${min} (got ${v})`);
  return v;
}

function url(
  env: Record<string, string | undefined>,
  name: string,
  protocols: string[],
): string | null {
  const raw = env[name];
  if (!raw) return null;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(`${name} is not a valid URL (got "${raw}")`);
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new ConfigError(`${name} must use ${protocols.join(' or ')} (got "${parsed.protocol}")`);
  }
  return raw;
}

function parseOrigins(raw: string | undefined): string | string[] {
  if (!raw || raw.trim() === '*') return '*';
  const origins = raw
    .split(',')
    .map((o) => o.trim())
    .filter(Boolean);
  for (const o of origins) {
    let u: URL;
    try {
      u = new URL(o);
    } catch {
      throw new ConfigError(
        `MODELGATE_CORS_ORIGINS: "${o}" is not an origin (e.g. https://app.example.com)`,
      );
    }
    if (u.origin !== o.replace(/\/+$/, '')) {
      throw new ConfigError(
        `MODELGATE_CORS_ORIGINS: "${o}" must be a bare origin (scheme://host[:port])`,
      );
    }
  }
  return origins.map((o) => o.replace(/\/+$/, ''));
}

/** Read and validate the YAML config file. */
export function loadConfigFile(path: string): ConfigFile {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new ConfigError(`MODELGATE_CONFIG: cannot read ${path}: ${(err as Error).message}`);
  }
  let data: unknown;
  try {
    data = parseYaml(text) ?? {};
  } catch (err) {
    throw new ConfigError(`MODELGATE_CONFIG: ${path} is not valid YAML: ${(err as Error).message}`);
  }
  const result = configFileSchema.safeParse(data);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    const where = issue.path.join('.') || '(top level)';
    const detail =
      issue.code === 'unrecognized_keys'
        ? `unknown key(s) ${issue.keys.join(', ')}; allowed: providers, models, video, callbacks`
        : issue.message;
    throw new ConfigError(`MODELGATE_CONFIG: ${path}: ${where}: ${detail}`);
  }
  // Validate the text sections now so a bad file fails before anything starts (TEXT parses them
  // again when it builds its catalogue).
  try {
    parseTextModelConfig(result.data);
  } catch (err) {
    throw new ConfigError(`MODELGATE_CONFIG: ${path}: ${(err as Error).message}`);
  }
  return result.data;
}

/**
 * Build the Config from an environment (default `process.env`).
 *
 * @example
 * const config = loadConfig({ ...process.env, PORT: '0' });
 */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const port = int(env, 'PORT', 8080);
  const cdnPort = env.CDN_PORT ? int(env, 'CDN_PORT', 0) : port === 0 ? 0 : port + 1;
  if (port > 65535 || cdnPort > 65535) throw new ConfigError('PORT and CDN_PORT must be ≤ 65535');
  const dataDir = resolve(env.MODELGATE_DATA_DIR || './.modelgate');
  const configPath = env.MODELGATE_CONFIG ? resolve(env.MODELGATE_CONFIG) : null;
  const file = configPath ? loadConfigFile(configPath) : {};
  let logLevel: LogLevel;
  try {
    logLevel = parseLogLevel(env.LOG_LEVEL);
  } catch (err) {
    throw new ConfigError((err as Error).message);
  }
  let providers: ProviderEnv;
  try {
    providers = readProviderEnv(env);
  } catch (err) {
    throw new ConfigError((err as Error).message);
  }
  const yamlProviders = file.providers;
  const yamlHasProviders =
    yamlProviders !== undefined &&
    yamlProviders !== null &&
    (Array.isArray(yamlProviders)
      ? yamlProviders.length > 0
      : Object.keys(yamlProviders).length > 0);
  let s3: S3Settings | null;
  try {
    s3 = readStorageEnv(env);
  } catch (err) {
    throw new ConfigError((err as Error).message);
  }
  const maxUploadBytes = int(env, 'MODELGATE_MAX_UPLOAD_BYTES', 20 * 1024 * 1024, 1);
  if (s3 && maxUploadBytes > MAX_SINGLE_PUT_BYTES) {
    // The object store gets each blob in one PutObject, which S3 caps at 5 GiB.
    throw new ConfigError('MODELGATE_MAX_UPLOAD_BYTES must be at most 5 GiB with an object store');
  }
  const adminKey = env.GATEWAY_ADMIN_KEY?.trim() || null;
  if (adminKey !== null && adminKey.length < 16) {
    throw new ConfigError('GATEWAY_ADMIN_KEY must be at least 16 characters');
  }
  return {
    host: env.HOST || '0.0.0.0',
    port,
    cdnPort,
    cdnUrl: url(env, 'CDN_URL', ['http:', 'https:'])?.replace(/\/+$/, '') ?? null,
    dataDir,
    s3,
    databaseUrl: url(env, 'DATABASE_URL', ['postgres:', 'postgresql:']),
    pgliteDir: env.MODELGATE_PGLITE_DIR || `${dataDir}/db`,
    redisUrl: url(env, 'REDIS_URL', ['redis:', 'rediss:']),
    redisPrefix: env.MODELGATE_REDIS_PREFIX || 'modelgate',
    redisTimeoutMs: int(env, 'MODELGATE_REDIS_TIMEOUT_MS', 250, 1),
    adminKey,
    logLevel,
    drainTimeoutMs: int(env, 'MODELGATE_DRAIN_TIMEOUT_MS', 30_000),
    leaseIdleMs: int(env, 'MODELGATE_LEASE_IDLE_MS', 5_000),
    maxUploadBytes,
    maxJsonBytes: int(env, 'MODELGATE_MAX_JSON_BYTES', 1024 * 1024, 1),
    headersTimeoutMs: int(env, 'MODELGATE_HEADERS_TIMEOUT_MS', 15_000, 1),
    requestTimeoutMs: int(env, 'MODELGATE_REQUEST_TIMEOUT_MS', 120_000, 1),
    corsOrigins: parseOrigins(env.MODELGATE_CORS_ORIGINS),
    callbackAllowPrivate: env.MODELGATE_CALLBACK_ALLOW_PRIVATE === '1',
    configPath,
    file,
    providers,
    demoMode: !providers.anyConfigured && !yamlHasProviders,
    simulatorUrl: null,
    env,
  };
}
