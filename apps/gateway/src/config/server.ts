/** The listeners and what they take from a client: ports, public URLs, limits, timeouts, CORS. */
import { z } from 'zod';
import { type LogLevel, parseLogLevel } from '../observability/logger.js';
import { ConfigError, variable } from './section.js';

export interface ServerSettings {
  /** Bind address (HOST, default 0.0.0.0). */
  host: string;
  /** API port (PORT, default 8080; 0 = any free port). */
  port: number;
  /** CDN listener port (CDN_PORT, default PORT+1; 0 when PORT is 0). */
  cdnPort: number;
  /** Public base of stored files (CDN_URL); null = derived from the CDN listener's address at start. */
  cdnUrl: string | null;
  /** GATEWAY_ADMIN_KEY or null (→ generated on first start). */
  adminKey: string | null;
  /** LOG_LEVEL, default info. */
  logLevel: LogLevel;
  /** MODELGATE_DRAIN_TIMEOUT_MS, default 30000. */
  drainTimeoutMs: number;
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
}

const logLevel = z.preprocess(
  (value) => (value === '' ? undefined : value),
  z
    .string()
    .transform((raw, ctx) => {
      try {
        return parseLogLevel(raw);
      } catch {
        ctx.issues.push({ code: 'custom', message: 'one of debug, info, warn, error', input: raw });
        return z.NEVER;
      }
    })
    .optional(),
);

/** `*`, or origins (scheme://host[:port]) separated by commas. */
const corsOrigins = z.preprocess(
  (value) => (value === '' ? undefined : value),
  z
    .string()
    .transform((raw, ctx) => {
      if (raw.trim() === '*') return '*';
      const origins = raw
        .split(',')
        .map((o) => o.trim())
        .filter(Boolean)
        .map((o) => o.replace(/\/+$/, ''));
      const bad = origins.find((o) => !URL.canParse(o) || new URL(o).origin !== o);
      if (bad === undefined) return origins;
      ctx.issues.push({
        code: 'custom',
        message: `* or bare origins such as https://app.example.com, comma-separated ("${bad}" is not one)`,
        input: raw,
      });
      return z.NEVER;
    })
    .optional(),
);

export const serverVariables = {
  HOST: variable.text(),
  PORT: variable.int({ max: 65535 }),
  CDN_PORT: variable.int({ max: 65535 }),
  CDN_URL: variable.url(['http:', 'https:']),
  GATEWAY_ADMIN_KEY: variable.text(),
  LOG_LEVEL: logLevel,
  MODELGATE_DRAIN_TIMEOUT_MS: variable.int(),
  MODELGATE_MAX_JSON_BYTES: variable.int({ min: 1 }),
  MODELGATE_HEADERS_TIMEOUT_MS: variable.int({ min: 1 }),
  MODELGATE_REQUEST_TIMEOUT_MS: variable.int({ min: 1 }),
  MODELGATE_CORS_ORIGINS: corsOrigins,
};

function adminKeyOf(raw: string | undefined): string | null {
  const key = raw?.trim() || null;
  if (key !== null && key.length < 16) {
    throw new ConfigError('GATEWAY_ADMIN_KEY must be at least 16 characters');
  }
  return key;
}

export const serverSection = z
  .object({ env: z.object(serverVariables) })
  .transform(({ env }): ServerSettings => {
    const port = env.PORT ?? 8080;
    const cdnPort = env.CDN_PORT ?? (port === 0 ? 0 : port + 1);
    if (cdnPort > 65535)
      throw new ConfigError('CDN_PORT must be at most 65535 (PORT+1 unless set)');
    return {
      host: env.HOST ?? '0.0.0.0',
      port,
      cdnPort,
      cdnUrl: env.CDN_URL?.replace(/\/+$/, '') ?? null,
      adminKey: adminKeyOf(env.GATEWAY_ADMIN_KEY),
      logLevel: env.LOG_LEVEL ?? 'info',
      drainTimeoutMs: env.MODELGATE_DRAIN_TIMEOUT_MS ?? 30_000,
      maxJsonBytes: env.MODELGATE_MAX_JSON_BYTES ?? 1024 * 1024,
      headersTimeoutMs: env.MODELGATE_HEADERS_TIMEOUT_MS ?? 15_000,
      requestTimeoutMs: env.MODELGATE_REQUEST_TIMEOUT_MS ?? 120_000,
      corsOrigins: env.MODELGATE_CORS_ORIGINS ?? '*',
    };
  });
