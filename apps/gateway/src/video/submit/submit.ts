/**
 * A submission: checked, priced, reserved and written as a pending task, in one transaction; a
 * repeated Idempotency-Key with the same body answers the first task, another body under it is a 409.
 */
import { createHash } from 'node:crypto';
import type { VideoTaskCreated } from '@modelgate/core';
import { zCreateVideoGenerationRequest } from '@modelgate/core/zod';
import type { Kysely } from 'kysely';
import type { Billing } from '../../billing/billing.js';
import { randomBase62 } from '../../db/ids.js';
import type { DB } from '../../db/schema.js';
import {
  ApiError,
  badRequest,
  conflict,
  forbidden,
  insufficientQuota,
  notFound,
} from '../../errors/api-error.js';
import { validateBody } from '../../errors/validate.js';
import type { FilesService } from '../../files/index.js';
import type { AuthKey } from '../../keys/keys.js';
import { type IsTextModel, modelKindOf, unknownModel } from '../../models/model-kinds.js';
import { VIDEO_MODELS, type VideoModelSpec } from '../models.js';
import {
  type NormalizedVideoRequest,
  normalizeVideoRequest,
  priceUnits,
  VideoRequestError,
} from './request.js';

export interface SubmitDeps {
  db: Kysely<DB>;
  billing: Billing;
  files: FilesService;
  /** Our CDN's base URL, without a trailing slash. */
  cdnUrl: string;
  /** Overrides every model's deadline (ms). */
  deadlineMs?: number;
  /** The callbacks' submit-time check; throws ApiError 400 param callback_url. */
  assertCallbackUrlAllowed?: (url: string) => Promise<void>;
  /** Whether an adapter is configured for the provider. */
  isConfigured(provider: string): boolean;
  /** Names the text endpoint when a submit gives a text model's id. */
  isTextModel?: IsTextModel;
  /** Tells the engine a task is waiting to be submitted. */
  wake(): void;
}

/**
 * Validates a submission, reserves its credits and writes the task row (`pending`); the engine
 * submits it upstream. A repeated Idempotency-Key with the same body returns the first task.
 */
export async function submitVideoTask(
  deps: SubmitDeps,
  key: AuthKey,
  body: unknown,
  idempotencyKey?: string | null,
): Promise<VideoTaskCreated> {
  const request = validateSubmission(key, body, deps);
  const spec = VIDEO_MODELS[request.model]!;
  assertIdempotencyKeyValid(idempotencyKey);
  const hash = requestHash(body);
  if (idempotencyKey) {
    const existing = await findIdempotentTask(deps.db, key.id, idempotencyKey, hash);
    if (existing) return existing;
  }
  await assertSubmittable(deps, key, request, spec);
  try {
    const created = await insertTask(deps, key, request, spec, { hash, idempotencyKey });
    deps.wake();
    return created;
  } catch (error) {
    if (error instanceof IdempotentReplay && idempotencyKey) {
      const existing = await findIdempotentTask(deps.db, key.id, idempotencyKey, hash);
      if (existing) return existing;
    }
    throw error;
  }
}

/** The body checked against the model's table (precise messages) and the spec's schema. */
function validateSubmission(
  key: AuthKey,
  body: unknown,
  { cdnUrl, isTextModel }: Pick<SubmitDeps, 'cdnUrl' | 'isTextModel'>,
): NormalizedVideoRequest {
  const model = (body as { model?: unknown } | null)?.model;
  if (typeof model === 'string' && !VIDEO_MODELS[model]) {
    if (modelKindOf(model, isTextModel)) throw unknownModel(model, 'video', isTextModel);
    throw notFound(
      `Unknown video model ${model}; available: ${Object.keys(VIDEO_MODELS).join(', ')}.`,
      'model_not_found',
      'model',
    );
  }
  let request: NormalizedVideoRequest;
  try {
    request = normalizeVideoRequest(body, cdnUrl);
  } catch (error) {
    if (error instanceof VideoRequestError)
      throw badRequest(error.message, error.param, error.code);
    throw error;
  }
  // The spec's own schema as a backstop (the model table above gives the precise messages).
  validateBody(zCreateVideoGenerationRequest, body);
  if (key.models && !key.models.includes(request.model)) {
    throw forbidden(`This key may not use ${request.model}.`, 'model_not_allowed', 'model');
  }
  return request;
}

/** Refuses what could not be submitted: a refused callback URL, a missing file, no provider. */
async function assertSubmittable(
  deps: SubmitDeps,
  key: AuthKey,
  request: NormalizedVideoRequest,
  spec: VideoModelSpec,
): Promise<void> {
  if (request.callbackUrl && deps.assertCallbackUrlAllowed) {
    await deps.assertCallbackUrlAllowed(request.callbackUrl);
  }
  for (const [param, source] of [
    ['image_url', request.image],
    ['last_frame_url', request.lastFrame],
  ] as const) {
    if (source?.kind === 'file' && !(await deps.files.get(key.id, source.fileId))) {
      throw badRequest(
        `${param}: no file ${source.fileId} (upload it with POST /v1/files).`,
        param,
        'file_not_found',
      );
    }
  }
  if (!deps.isConfigured(spec.provider)) {
    throw new ApiError(503, 'overloaded_error', `No provider is configured for ${spec.id}.`, {
      code: 'provider_not_configured',
    });
  }
}

/**
 * Reserves the credits and inserts the task in one transaction. Losing a race for the same
 * Idempotency-Key throws IdempotentReplay, which rolls the reservation back with the insert.
 */
async function insertTask(
  deps: SubmitDeps,
  key: AuthKey,
  request: NormalizedVideoRequest,
  spec: VideoModelSpec,
  idempotency: { hash: string; idempotencyKey?: string | null },
): Promise<VideoTaskCreated> {
  const units = priceUnits(request.model, request.resolution, request.duration);
  const now = Date.now();
  const id = `vt_${randomBase62(24)}`;
  const { callbackUrl, metadata, model: _model, ...params } = request;
  return deps.db.transaction().execute(async (trx) => {
    const charges = deps.billing.inTransaction(trx);
    // Reserved as at `now`, the task's created_at: settling gives that period's budgets back.
    if (!(await charges.reserve(key.id, units, new Date(now)))) throw insufficientQuota();
    const inserted = await trx
      .insertInto('video_tasks')
      .values({
        id,
        key_id: key.id,
        model: request.model,
        provider: spec.provider,
        status: 'pending',
        params: JSON.stringify(params),
        metadata: metadata ? JSON.stringify(metadata) : null,
        callback_url: callbackUrl ?? null,
        idempotency_key: idempotency.idempotencyKey ?? null,
        request_hash: idempotency.hash,
        reserved_units: units,
        next_poll_at_ms: now,
        deadline_at_ms: now + (deps.deadlineMs ?? spec.deadlineMs),
        created_at: Math.floor(now / 1000),
        updated_at: Math.floor(now / 1000),
      })
      .onConflict((oc) =>
        oc
          .columns(['key_id', 'idempotency_key'])
          .where('idempotency_key', 'is not', null)
          .doNothing(),
      )
      .returning(['id', 'created_at'])
      .executeTakeFirst();
    // Lost a race with the same Idempotency-Key: roll the reservation back with the insert.
    if (!inserted) throw new IdempotentReplay();
    return {
      task_id: inserted.id,
      status: 'pending' as const,
      created_at: Number(inserted.created_at),
    };
  });
}

// Idempotency-Key: a replay answers the first task; the key's length and another body are refused.

/** Thrown inside the insert's transaction when a concurrent submit took the Idempotency-Key. */
class IdempotentReplay extends Error {}

/** Canonical JSON (sorted keys) so the same body always hashes the same. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** The hash that tells a replay of a submission from another body under the same key. */
function requestHash(body: unknown): string {
  return createHash('sha256').update(canonical(body)).digest('hex');
}

/** Refuses an Idempotency-Key header of the wrong length (400). */
function assertIdempotencyKeyValid(idempotencyKey: string | null | undefined): void {
  if (idempotencyKey === undefined || idempotencyKey === null) return;
  if (idempotencyKey.length < 1 || idempotencyKey.length > 255) {
    throw badRequest(
      'Idempotency-Key must be 1 to 255 characters.',
      'Idempotency-Key',
      'invalid_value',
    );
  }
}

/**
 * The task an earlier submission with this Idempotency-Key created, or null; 409 when that
 * submission had another body.
 */
async function findIdempotentTask(
  db: Kysely<DB>,
  keyId: number,
  idempotencyKey: string,
  hash: string,
): Promise<VideoTaskCreated | null> {
  const row = await db
    .selectFrom('video_tasks')
    .select(['id', 'created_at', 'request_hash'])
    .where('key_id', '=', keyId)
    .where('idempotency_key', '=', idempotencyKey)
    .executeTakeFirst();
  if (!row) return null;
  if (row.request_hash !== hash) {
    throw conflict(
      'This Idempotency-Key was already used with a different request body.',
      'idempotency_key_reused',
    );
  }
  return { task_id: row.id, status: 'pending', created_at: Number(row.created_at) };
}
