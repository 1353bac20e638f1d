/**
 * Text routes: POST /v1/chat/completions, /v1/completions, /v1/messages and GET /v1/models (text,
 * image and video models).
 * Routes orchestrate only: validate with the spec's zod schemas, check the messages version
 * header, hand the typed body to the text service (which resolves, bills, routes and translates).
 */
import {
  zCreateChatCompletionRequest,
  zCreateCompletionRequest,
  zCreateMessageRequest,
} from '@modelgate/core/zod';
import type { Context, Hono } from 'hono';
import { modelListResponse } from '../../models/catalog.js';
import type { Services } from '../../services.js';
import { OVERHEAD_HEADER, type TextRequest } from '../../text/service.js';
import { chatBodyFastPath, messagesBodyFastPath } from '../body-fast-paths.js';
import { clientAbort } from '../client-abort.js';
import type { AppEnv } from '../env.js';
import { ApiError, badRequest } from '../errors.js';
import { readJsonBody, validateBody } from '../validate.js';

/** The messages API versions this gateway speaks; the last is the latest. */
export const SUPPORTED_MESSAGES_VERSIONS = ['2023-06-01'] as const;
export const LATEST_MESSAGES_VERSION = '2023-06-01';

/**
 * Resolves the messages version from `vendor-version` (or its alias `anthropic-version`).
 * Absent → the latest. A well-formed date selects the newest supported version not after it, so
 * clients pinned to a later date keep working; a malformed value or a date before the first
 * supported version is a 400 naming the header.
 *
 * @example
 * resolveMessagesVersion(undefined); // '2023-06-01'
 * resolveMessagesVersion('2025-01-01'); // '2023-06-01'
 */
export function resolveMessagesVersion(header: string | undefined): string {
  if (header === undefined || header.trim() === '') return LATEST_MESSAGES_VERSION;
  const value = header.trim();
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  const date = match ? new Date(`${value}T00:00:00Z`) : null;
  if (
    !match ||
    !date ||
    Number.isNaN(date.getTime()) ||
    date.toISOString().slice(0, 10) !== value
  ) {
    throw badRequest(
      `vendor-version must be a date in the form YYYY-MM-DD (got "${value}").`,
      'vendor-version',
      'invalid_value',
    );
  }
  const applicable = SUPPORTED_MESSAGES_VERSIONS.filter((v) => v <= value);
  const chosen = applicable[applicable.length - 1];
  if (!chosen) {
    throw badRequest(
      `vendor-version ${value} is not supported; supported: ${SUPPORTED_MESSAGES_VERSIONS.join(', ')}.`,
      'vendor-version',
      'unsupported_version',
    );
  }
  return chosen;
}

/** A header's value, with an empty or all-blank value counting as absent (spec: VendorVersion). */
function nonBlankHeader(c: Context, name: string): string | undefined {
  const value = c.req.header(name);
  return value === undefined || value.trim() === '' ? undefined : value;
}

/** Refusals before any upstream call still say how long the gateway took. */
function withOverhead<T>(c: Context<AppEnv>, run: () => Promise<T>): Promise<T> {
  return run().catch((err: unknown) => {
    if (err instanceof ApiError && err.headers[OVERHEAD_HEADER] === undefined) {
      const startedAt = c.get('startedAt') ?? performance.now();
      err.headers[OVERHEAD_HEADER] = Math.max(0, performance.now() - startedAt).toFixed(2);
    }
    throw err;
  });
}

export function registerTextRoutes(app: Hono<AppEnv>, services: Services): void {
  const serve = (c: Context<AppEnv>, request: TextRequest) =>
    services.text.generate(request, {
      key: c.get('key'),
      requestId: c.get('requestId'),
      startedAt: c.get('startedAt') ?? performance.now(),
      abort: clientAbort(c),
    });

  app.post('/v1/chat/completions', (c) =>
    withOverhead(c, async () => {
      const raw = await readJsonBody(c);
      const body = chatBodyFastPath(raw) ?? validateBody(zCreateChatCompletionRequest, raw);
      return serve(c, { format: 'chat', body });
    }),
  );

  app.post('/v1/completions', (c) =>
    withOverhead(c, async () => {
      const body = validateBody(zCreateCompletionRequest, await readJsonBody(c));
      return serve(c, { format: 'completion', body });
    }),
  );

  app.post('/v1/messages', (c) =>
    withOverhead(c, async () => {
      // vendor-version wins over its alias when both are sent (spec: VendorVersion).
      const version = resolveMessagesVersion(
        nonBlankHeader(c, 'vendor-version') ?? nonBlankHeader(c, 'anthropic-version'),
      );
      const raw = await readJsonBody(c);
      const body = messagesBodyFastPath(raw) ?? validateBody(zCreateMessageRequest, raw);
      const res = await serve(c, { format: 'messages', body });
      res.headers.set('vendor-version', version);
      return res;
    }),
  );

  app.get('/v1/models', (c) => {
    const allowed = c.get('key')?.models ?? null;
    const permitted = (m: { id: string }) => !allowed || allowed.includes(m.id);
    const body = modelListResponse(
      allowed ? services.text.listModelsFor(allowed) : services.text.listModels(),
      services.images.listModels().filter(permitted),
      services.video.listModels().filter(permitted),
    );
    const startedAt = c.get('startedAt') ?? performance.now();
    c.header(OVERHEAD_HEADER, Math.max(0, performance.now() - startedAt).toFixed(2));
    return c.json(body);
  });
}
