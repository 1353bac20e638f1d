import { createHash } from 'node:crypto';
import { zCreateVideoGenerationRequest } from '@modelgate/core/zod';
import type { Kysely, Transaction } from 'kysely';
import { sql } from 'kysely';
import type { Billing } from '../billing/billing.js';
import type { DB } from '../db/schema.js';
import { randomBase62 } from '../files/ids.js';
import type { FilesService } from '../files/service.js';
import { readBlob } from '../files/storage.js';
import {
  ApiError,
  badRequest,
  conflict,
  forbidden,
  insufficientQuota,
  notFound,
} from '../http/errors.js';
import { validateBody } from '../http/validate.js';
import type { AuthKey } from '../keys/keys.js';
import { VIDEO_MODELS } from '../providers/video/registry.js';
import type {
  ImageInput,
  PollResult,
  VideoAdapter,
  VideoProviderConfig,
  VideoSubmitRequest,
} from '../providers/video/types.js';
import {
  createTaskEngine,
  type EngineLogger,
  type EngineObserver,
  type TaskEngine,
  type TaskEngineOptions,
  TaskInputError,
} from '../tasks/engine.js';
import type { EnqueueCallback, StoredVideo } from '../tasks/transitions.js';
import { finishTask } from '../tasks/transitions.js';
import { probeMp4 } from './mp4.js';
import type { VideoTaskStatus } from './tables.js';
import { toVideoTask, type VideoTaskObject, type VideoTaskRow } from './task-object.js';
import {
  type ImageSource,
  type NormalizedVideoRequest,
  normalizeVideoRequest,
  priceUnits,
  VideoRequestError,
} from './validate.js';

export interface VideoTaskCreated {
  task_id: string;
  status: 'pending';
  created_at: number;
}

export interface VideoTaskList {
  object: 'list';
  data: VideoTaskObject[];
  has_more: boolean;
  next_cursor: string | null;
}

export interface VideoService {
  engine: TaskEngine;
  /**
   * Validates, reserves credits and writes the task row (`pending`); the engine submits upstream.
   * @example const created = await video.submit(key, body, req.header('idempotency-key'));
   */
  submit(key: AuthKey, body: unknown, idempotencyKey?: string | null): Promise<VideoTaskCreated>;
  get(keyId: number, taskId: string): Promise<VideoTaskObject>;
  list(
    keyId: number,
    query: { limit?: number; after?: string | null; status?: string | null },
  ): Promise<VideoTaskList>;
  /** pending/in_progress → cancelled (refunded, upstream cancelled where possible); final → 409. */
  cancel(keyId: number, taskId: string): Promise<VideoTaskObject>;
  /** For the CDN: the finished video's blob. */
  findVideo(taskId: string): Promise<{ sha256: string; size: number; contentType: string } | null>;
}

export interface VideoServiceDeps {
  db: Kysely<DB>;
  billing: Billing;
  files: FilesService;
  cdnUrl: string;
  /** Connection settings per provider name (xai, gemini, kling, …); missing = not configured. */
  providers: Partial<Record<string, VideoProviderConfig>>;
  /** CB's submit-time check; throws ApiError 400 param callback_url. */
  assertCallbackUrlAllowed?: (url: string) => Promise<void>;
  enqueueCallback?: EnqueueCallback;
  engine?: TaskEngineOptions;
  /** Overrides every model's deadline (ms). */
  deadlineMs?: number;
  /** Largest result video accepted from a provider. Default 2 GiB. */
  maxVideoBytes?: number;
  log?: EngineLogger;
  observer?: EngineObserver;
}

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

/** Whether files we serve are reachable by providers (several fetch only public HTTPS URLs). */
export function isPublicHttps(cdnUrl: string): boolean {
  try {
    const url = new URL(cdnUrl);
    const host = url.hostname;
    return (
      url.protocol === 'https:' &&
      host !== 'localhost' &&
      !host.endsWith('.localhost') &&
      !/^(127\.|10\.|192\.168\.|172\.(1[6-9]|2\d|3[01])\.|\[)/.test(host) &&
      host.includes('.')
    );
  } catch {
    return false;
  }
}

class IdempotentReplay extends Error {}

/**
 * Video generation: submit (validate, reserve, insert), read, list, cancel, and the engine that
 * drives tasks to a final state.
 *
 * @example
 * const video = createVideoService({ db, billing, files, cdnUrl, providers: { xai: { baseUrl, apiKey } } });
 * video.engine.start();
 */
export function createVideoService(deps: VideoServiceDeps): VideoService {
  const { db, billing, files } = deps;
  const cdnUrl = deps.cdnUrl.replace(/\/+$/, '');
  const adapters = new Map<string, VideoAdapter>();
  for (const spec of Object.values(VIDEO_MODELS)) {
    const config = deps.providers[spec.provider];
    if (config && !adapters.has(spec.provider))
      adapters.set(spec.provider, spec.createAdapter(config));
  }
  const transitionDeps = {
    db,
    billing,
    cdnUrl,
    enqueueCallback: deps.enqueueCallback,
    unitsPerSecond: (model: string, resolution: string) =>
      VIDEO_MODELS[model]?.unitsPerSecond[resolution] ?? 0,
  };
  const publicCdn = isPublicHttps(cdnUrl);

  async function resolveImage(
    source: ImageSource | undefined,
    param: string,
    transport: string,
  ): Promise<ImageInput | undefined> {
    if (!source) return undefined;
    if (source.kind === 'external') return { kind: 'url', url: source.url };
    const row = await db
      .selectFrom('files')
      .selectAll()
      .where('id', '=', source.fileId)
      .executeTakeFirst();
    if (!row)
      throw new TaskInputError(
        'image_not_found',
        `${param}: the file ${source.fileId} was deleted before the task was submitted`,
      );
    if (publicCdn || transport === 'url_only')
      return { kind: 'url', url: `${cdnUrl}/files/${row.id}.${row.ext}` };
    // Read from our storage, never over the network, and hand it over inline.
    const bytes = await readBlob(files.store, row.sha256);
    if (!bytes)
      throw new TaskInputError(
        'image_not_found',
        `${param}: the bytes of ${source.fileId} are missing`,
      );
    return { kind: 'inline', mimeType: row.mime_type, base64: bytes.toString('base64') };
  }

  async function buildRequest(row: VideoTaskRow): Promise<VideoSubmitRequest> {
    const p = row.params;
    const request: VideoSubmitRequest = {
      prompt: p.prompt,
      duration: p.duration,
      resolution: p.resolution,
      aspectRatio: p.aspectRatio,
    };
    const transport = VIDEO_MODELS[row.model]?.imageTransport ?? 'url_or_inline';
    const image = await resolveImage(p.image, 'image_url', transport);
    if (image) request.image = image;
    const lastFrame = await resolveImage(p.lastFrame, 'last_frame_url', transport);
    if (lastFrame) request.lastFrame = lastFrame;
    if (p.seed !== undefined) request.seed = p.seed;
    if (p.negativePrompt !== undefined) request.negativePrompt = p.negativePrompt;
    if (p.generateAudio !== undefined) request.generateAudio = p.generateAudio;
    return request;
  }

  async function storeResult(
    row: VideoTaskRow,
    adapter: VideoAdapter,
    result: PollResult,
  ): Promise<StoredVideo> {
    const response = await adapter.download({ resultUrl: result.resultUrl! });
    if (!response.body)
      throw new TaskInputError('invalid_result', `${adapter.provider} returned an empty video`);
    const staged = await files.store.stage(response.body, {
      maxBytes: deps.maxVideoBytes ?? 2 * 1024 ** 3,
    });
    if (staged.size < 8 || Buffer.from(staged.head).toString('latin1', 4, 8) !== 'ftyp') {
      await staged.discard();
      throw new TaskInputError(
        'invalid_result',
        `${adapter.provider} returned something that is not an MP4`,
      );
    }
    await db.transaction().execute(async (trx: Transaction<DB>) => {
      await sql`select pg_advisory_xact_lock(hashtextextended(${staged.sha256}, 0))`.execute(trx);
      await staged.commit();
    });
    const info = await probeMp4(async (start, length) => {
      const stream = await files.store.get(staged.sha256, { start, end: start + length - 1 });
      const chunks: Buffer[] = [];
      for await (const chunk of stream ?? []) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks);
    }, staged.size);
    return {
      sha256: staged.sha256,
      size: staged.size,
      duration: info?.duration || result.duration || row.params.duration || 0,
      width: info?.width ?? 0,
      height: info?.height ?? 0,
    };
  }

  const engine = createTaskEngine(
    {
      ...transitionDeps,
      adapterFor: (provider) => adapters.get(provider),
      buildRequest,
      storeResult,
      log: deps.log,
      observer: deps.observer,
    },
    deps.engine,
  );

  async function loadOwned(keyId: number, taskId: string): Promise<VideoTaskRow> {
    const row = (await db
      .selectFrom('video_tasks')
      .selectAll()
      .where('id', '=', taskId)
      .where('key_id', '=', keyId)
      .executeTakeFirst()) as VideoTaskRow | undefined;
    if (!row) throw notFound(`No video task ${taskId}.`, 'task_not_found', 'task_id');
    return row;
  }

  async function existingForKey(
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

  return {
    engine,
    async submit(key, body, idempotencyKey) {
      const model = (body as { model?: unknown } | null)?.model;
      if (typeof model === 'string' && !VIDEO_MODELS[model]) {
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
      const spec = VIDEO_MODELS[request.model]!;
      if (idempotencyKey !== undefined && idempotencyKey !== null) {
        if (idempotencyKey.length < 1 || idempotencyKey.length > 255) {
          throw badRequest(
            'Idempotency-Key must be 1 to 255 characters.',
            'Idempotency-Key',
            'invalid_value',
          );
        }
      }
      const hash = createHash('sha256').update(canonical(body)).digest('hex');
      if (idempotencyKey) {
        const existing = await existingForKey(key.id, idempotencyKey, hash);
        if (existing) return existing;
      }
      if (request.callbackUrl && deps.assertCallbackUrlAllowed) {
        await deps.assertCallbackUrlAllowed(request.callbackUrl);
      }
      for (const [param, source] of [
        ['image_url', request.image],
        ['last_frame_url', request.lastFrame],
      ] as const) {
        if (source?.kind === 'file' && !(await files.get(key.id, source.fileId))) {
          throw badRequest(
            `${param}: no file ${source.fileId} (upload it with POST /v1/files).`,
            param,
            'file_not_found',
          );
        }
      }
      if (!adapters.has(spec.provider)) {
        throw new ApiError(503, 'overloaded_error', `No provider is configured for ${spec.id}.`, {
          code: 'provider_not_configured',
        });
      }

      const units = priceUnits(request.model, request.resolution, request.duration);
      const now = Date.now();
      const id = `vt_${randomBase62(24)}`;
      const { callbackUrl, metadata, model: _model, ...params } = request;
      try {
        const created = await db.transaction().execute(async (trx) => {
          if (!(await billing.reserve(key.id, units, trx))) throw insufficientQuota();
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
              idempotency_key: idempotencyKey ?? null,
              request_hash: hash,
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
        engine.wake();
        return created;
      } catch (error) {
        if (error instanceof IdempotentReplay && idempotencyKey) {
          const existing = await existingForKey(key.id, idempotencyKey, hash);
          if (existing) return existing;
        }
        throw error;
      }
    },

    async get(keyId, taskId) {
      return toVideoTask(await loadOwned(keyId, taskId), cdnUrl);
    },

    async list(keyId, query) {
      const limit = query.limit ?? 20;
      let q = db.selectFrom('video_tasks').selectAll().where('key_id', '=', keyId);
      if (query.status) q = q.where('status', '=', query.status as VideoTaskStatus);
      if (query.after) {
        const cursor = await db
          .selectFrom('video_tasks')
          .select('seq')
          .where('id', '=', query.after)
          .where('key_id', '=', keyId)
          .executeTakeFirst();
        if (!cursor)
          throw badRequest('after is not a cursor from this list.', 'after', 'invalid_cursor');
        q = q.where('seq', '<', Number(cursor.seq));
      }
      const rows = (await q
        .orderBy('seq', 'desc')
        .limit(limit + 1)
        .execute()) as VideoTaskRow[];
      const page = rows.slice(0, limit);
      const hasMore = rows.length > limit;
      return {
        object: 'list',
        data: page.map((row) => toVideoTask(row, cdnUrl)),
        has_more: hasMore,
        next_cursor: hasMore ? page[page.length - 1]!.id : null,
      };
    },

    async cancel(keyId, taskId) {
      const row = await loadOwned(keyId, taskId);
      const done = await finishTask(transitionDeps, row.id, ['pending', 'in_progress'], {
        status: 'cancelled',
        code: 'cancelled',
        message: 'The task was cancelled by the client.',
      });
      if (!done) {
        const now = await loadOwned(keyId, taskId);
        throw conflict(`The task is already ${now.status}.`, 'task_already_final');
      }
      deps.observer?.finished?.(row.id, 'cancelled', 'api');
      const adapter = adapters.get(done.provider);
      if (done.upstream_id && adapter?.cancel) {
        // Best effort, after the commit: the task is cancelled and refunded whatever upstream says.
        adapter
          .cancel(done.upstream_id)
          .catch((error: Error) =>
            deps.log?.warn('upstream cancel failed', { task_id: row.id, err: error.message }),
          );
      }
      return toVideoTask(done, cdnUrl);
    },

    async findVideo(taskId) {
      const row = await db
        .selectFrom('video_tasks')
        .select(['video_sha256', 'video_size'])
        .where('id', '=', taskId)
        .where('status', '=', 'completed')
        .executeTakeFirst();
      if (!row?.video_sha256) return null;
      return { sha256: row.video_sha256, size: Number(row.video_size), contentType: 'video/mp4' };
    },
  };
}
