/**
 * The submit step: a pending task's provider request built from its stored params, sent to its
 * provider, and resumed safely after a crash.
 */
import { type FilesService, readBlob } from '../../files/index.js';
import { VIDEO_MODELS } from '../models.js';
import {
  type ImageInput,
  ProviderError,
  type VideoAdapter,
  type VideoSubmitRequest,
} from '../providers/types.js';
import type { ImageSource, VideoTaskRow } from '../tables.js';
import { type StepContext, TaskInputError, upstreamErrorReason } from './step.js';

/**
 * The submit step of a claimed pending task. `submit_started_at_ms` is set by CAS before the
 * upstream call and `upstream_id` recorded by CAS after it. A row claimed with the first and not
 * the second (the instance died or lost its lease in between) is resumed: found upstream by our
 * reference where the provider has a lookup (`findSubmitted`), sent again otherwise (see README,
 * "What a crash costs"). Refusals that prove the provider did not take it (429, 503, connection
 * refused) clear the marker of a first attempt and retry later.
 */
export async function submitTask(
  step: StepContext,
  row: VideoTaskRow,
  adapter: VideoAdapter,
): Promise<void> {
  if (row.upstream_id) return moveSubmittedOn(step, row);
  // The claim is ours, so a marker left on the row belongs to a submit that was cut short.
  const resuming = row.submit_started_at_ms !== null;
  if (!resuming && !(await markSubmitting(step, row.id))) {
    return step.release(row.id, step.pollIntervalMs);
  }
  const request = await buildRequestOrFail(step, row);
  if (!request) return;
  const upstreamId = await sendOrSettle(step, row, adapter, request, resuming);
  if (upstreamId === null) return;
  await recordUpstreamId(step, row, adapter, upstreamId);
  return step.release(row.id, step.pollIntervalMs);
}

/** Submitted, but the status CAS did not land (crash in between): just move it on. */
async function moveSubmittedOn(step: StepContext, row: VideoTaskRow): Promise<void> {
  await step.deps.db
    .updateTable('video_tasks')
    .set({ status: 'in_progress', updated_at: Math.floor(Date.now() / 1000) })
    .where('id', '=', row.id)
    .where('status', '=', 'pending')
    .execute();
  return step.release(row.id, step.pollIntervalMs);
}

/** Sets the "submitting" marker by CAS; false when the row moved on (cancelled) meanwhile. */
async function markSubmitting(step: StepContext, taskId: string): Promise<boolean> {
  const marked = await step.deps.db
    .updateTable('video_tasks')
    .set({ submit_started_at_ms: Date.now() })
    .where('id', '=', taskId)
    .where('status', '=', 'pending')
    .where('submit_started_at_ms', 'is', null)
    .where('claimed_by', '=', step.claimant.instanceId)
    .executeTakeFirst();
  return Number(marked.numUpdatedRows) === 1;
}

/** The provider request, or null when the task cannot be submitted as stored (it is failed). */
async function buildRequestOrFail(
  step: StepContext,
  row: VideoTaskRow,
): Promise<VideoSubmitRequest | null> {
  try {
    return await step.deps.buildRequest(row);
  } catch (error) {
    const code = error instanceof TaskInputError ? error.code : 'invalid_input';
    await step.finish(row, ['pending'], {
      status: 'failed',
      code,
      message: (error as Error).message,
    });
    return null;
  }
}

/**
 * Sends the request (or resumes an interrupted submit) and returns the upstream id; on a refusal
 * schedules a retry or fails the task, and returns null.
 */
async function sendOrSettle(
  step: StepContext,
  row: VideoTaskRow,
  adapter: VideoAdapter,
  request: VideoSubmitRequest,
  resuming: boolean,
): Promise<string | null> {
  const { deps, limits, observer } = step;
  try {
    const upstreamId = resuming
      ? await resumeSubmit(step, row, adapter, request)
      : (await adapter.submit(request, { reference: row.id })).upstreamId;
    limits.noteSuccess(adapter.provider);
    return upstreamId;
  } catch (error) {
    observer.upstreamError(adapter.provider, upstreamErrorReason(error));
    if (error instanceof ProviderError && error.retryable) {
      const delay = limits.noteThrottle(adapter.provider, error.retryAfterMs);
      deps.log?.warn('upstream refused a submit; will retry', {
        task_id: row.id,
        provider: adapter.provider,
        status: error.status,
      });
      // A resumed submit keeps its marker: the first attempt may still exist upstream.
      await step.release(row.id, delay, resuming ? {} : { submit_started_at_ms: null });
      return null;
    }
    const pe = error instanceof ProviderError ? error : null;
    await step.finish(row, ['pending'], {
      status: 'failed',
      code: pe ? 'upstream_rejected' : 'upstream_error',
      message: pe ? pe.message : `${adapter.provider}: ${(error as Error).message}`,
    });
    return null;
  }
}

/**
 * A submit that an earlier claim started and never recorded (the instance died, or lost its
 * lease, after `submit_started_at_ms` was set): find the upstream task by our reference where the
 * provider can look it up, otherwise send the same request again. The user is charged once
 * either way; without a lookup the provider may bill a duplicate generation.
 */
async function resumeSubmit(
  step: StepContext,
  row: VideoTaskRow,
  adapter: VideoAdapter,
  request: VideoSubmitRequest,
): Promise<string> {
  const { log } = step.deps;
  const reference = row.id;
  const found = await adapter.findSubmitted?.(reference, request);
  if (found) {
    log?.info('interrupted submit found upstream', {
      task_id: row.id,
      provider: adapter.provider,
    });
    return found.upstreamId;
  }
  log?.warn('interrupted submit sent again', {
    task_id: row.id,
    provider: adapter.provider,
    lookup: adapter.findSubmitted ? 'not_found' : 'unsupported',
  });
  try {
    return (await adapter.submit(request, { reference })).upstreamId;
  } catch (error) {
    // The first submit may have landed after the lookup: the provider then refuses the reused
    // reference, and the task it keeps is the one to follow.
    const late =
      adapter.findSubmitted && error instanceof ProviderError && !error.retryable
        ? await adapter.findSubmitted(reference, request)
        : null;
    if (late) return late.upstreamId;
    throw error;
  }
}

/** Records the upstream id by CAS and moves the task on; cancels upstream if it was cancelled meanwhile. */
async function recordUpstreamId(
  step: StepContext,
  row: VideoTaskRow,
  adapter: VideoAdapter,
  upstreamId: string,
): Promise<void> {
  const { db } = step.deps;
  const recorded = await db
    .updateTable('video_tasks')
    .set({
      upstream_id: upstreamId,
      status: 'in_progress',
      updated_at: Math.floor(Date.now() / 1000),
    })
    .where('id', '=', row.id)
    .where('status', '=', 'pending')
    .where('upstream_id', 'is', null)
    .executeTakeFirst();
  if (Number(recorded.numUpdatedRows) === 1) return;
  // Cancelled while we were submitting: keep the id for the record, cancel upstream.
  await db
    .updateTable('video_tasks')
    .set({ upstream_id: upstreamId })
    .where('id', '=', row.id)
    .where('upstream_id', 'is', null)
    .execute();
  await step.cancelUpstream(adapter, upstreamId, row.id);
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

export interface RequestBuilderDeps {
  files: FilesService;
  /** Our CDN's base URL, without a trailing slash. */
  cdnUrl: string;
}

/** One image of the request: external URLs pass through; our files go by URL or inline. */
async function resolveImage(
  deps: RequestBuilderDeps & { publicCdn: boolean },
  keyId: number,
  source: ImageSource | undefined,
  param: string,
  transport: string,
): Promise<ImageInput | undefined> {
  if (!source) return undefined;
  if (source.kind === 'external') return { kind: 'url', url: source.url };
  const row = await deps.files.get(keyId, source.fileId);
  if (!row)
    throw new TaskInputError(
      'image_not_found',
      `${param}: the file ${source.fileId} was deleted before the task was submitted`,
    );
  if (deps.publicCdn || transport === 'url_only')
    return { kind: 'url', url: deps.files.toObject(row).url };
  // Read from our storage, never over the network, and hand it over inline.
  const bytes = await readBlob(deps.files.store, row.sha256);
  if (!bytes)
    throw new TaskInputError(
      'image_not_found',
      `${param}: the bytes of ${source.fileId} are missing`,
    );
  return { kind: 'inline', mimeType: row.mime_type, base64: bytes.toString('base64') };
}

/**
 * The engine's `buildRequest`: the provider request from a task's stored params. Images that are
 * our files go as our CDN's URL where providers can reach it (or must take a URL), inline otherwise.
 */
export function createRequestBuilder(
  deps: RequestBuilderDeps,
): (row: VideoTaskRow) => Promise<VideoSubmitRequest> {
  const images = { ...deps, publicCdn: isPublicHttps(deps.cdnUrl) };
  return async function buildRequest(row: VideoTaskRow): Promise<VideoSubmitRequest> {
    const p = row.params;
    const request: VideoSubmitRequest = {
      prompt: p.prompt,
      duration: p.duration,
      resolution: p.resolution,
      aspectRatio: p.aspectRatio,
    };
    const transport = VIDEO_MODELS[row.model]?.imageTransport ?? 'url_or_inline';
    const image = await resolveImage(images, row.key_id, p.image, 'image_url', transport);
    if (image) request.image = image;
    const lastFrame = await resolveImage(
      images,
      row.key_id,
      p.lastFrame,
      'last_frame_url',
      transport,
    );
    if (lastFrame) request.lastFrame = lastFrame;
    if (p.seed !== undefined) request.seed = p.seed;
    if (p.negativePrompt !== undefined) request.negativePrompt = p.negativePrompt;
    if (p.generateAudio !== undefined) request.generateAudio = p.generateAudio;
    return request;
  };
}
