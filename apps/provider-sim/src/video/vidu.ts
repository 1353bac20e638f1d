// wire: docs/providers.md#9-vidu — Vidu (text2video, img2video, start-end2video, reference2video).
// Served at {sim}/vidu. Auth is `Authorization: Token <key>` (Bearer is refused).
// Cancel works while the task is queued; cancelled tasks then read as `failed`.
import type { Ctx, ErrorSpec, Provider } from '../context.js';
import { badRequest } from '../errors.js';
import { sendJson } from '../respond.js';
import type { RouteDef } from '../router.js';
import {
  boolField,
  createTask,
  findTask,
  imageBytesOf,
  intField,
  isImageRef,
  isoTime,
  mediaRoute,
  mediaUrl,
  numericId,
  objectBody,
  requireApiKey,
  sizeFor,
  stringField,
} from './common.js';
import { phaseOf, type Task } from './tasks.js';

const REASON_BY_STATUS: Record<number, string> = {
  400: 'BadRequest',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'NotFound',
  429: 'TooManyRequests',
  500: 'InternalServerError',
  503: 'ServiceUnavailable',
};

export const viduProvider: Provider = {
  id: 'vidu',
  prefix: '/vidu',
  renderError(error: ErrorSpec, ctx: Ctx) {
    return {
      status: error.status,
      body: {
        code: error.status,
        reason: error.code ?? REASON_BY_STATUS[error.status] ?? 'InternalServerError',
        message: error.message,
        metadata: { trace_id: ctx.requestId },
      },
    };
  },
};

type Kind = 'text2video' | 'img2video' | 'start-end2video' | 'reference2video';

const MODELS: Record<Kind, string[]> = {
  text2video: ['viduq3-pro', 'viduq3-turbo', 'viduq2', 'viduq1'],
  img2video: [
    'viduq3-pro',
    'viduq2-pro',
    'viduq2-turbo',
    'viduq2-pro-fast',
    'viduq1',
    'viduq1-classic',
    'vidu2.0',
  ],
  'start-end2video': [
    'viduq3-pro',
    'viduq2-pro',
    'viduq2-turbo',
    'viduq2-pro-fast',
    'viduq1',
    'viduq1-classic',
    'vidu2.0',
  ],
  reference2video: ['viduq2', 'viduq1', 'vidu2.0'],
};
const IMAGE_COUNT: Record<Kind, [number, number]> = {
  text2video: [0, 0],
  img2video: [1, 1],
  'start-end2video': [2, 2],
  reference2video: [1, 7],
};

function checkAuth(ctx: Ctx): void {
  requireApiKey(ctx, 'Unauthorized: use "Authorization: Token <api key>"', 'Token');
}

function durationRange(model: string): [number, number] {
  if (model.startsWith('viduq3')) return [1, 16];
  if (model.startsWith('viduq2')) return [1, 10];
  if (model === 'viduq1' || model === 'viduq1-classic') return [5, 5];
  return [4, 8];
}

function submit(kind: Kind) {
  return (ctx: Ctx): void => {
    checkAuth(ctx);
    const body = objectBody(ctx);
    const model = stringField(body, 'model', { required: true, oneOf: MODELS[kind] })!;
    const prompt = stringField(body, 'prompt', { max: 5000 });
    if (kind === 'text2video' && !prompt) throw badRequest('prompt is required', 'prompt');
    const [minImages, maxImages] = IMAGE_COUNT[kind];
    if (maxImages > 0) {
      const images = body.images;
      if (
        !Array.isArray(images) ||
        images.length < minImages ||
        images.length > maxImages ||
        !images.every(isImageRef)
      ) {
        throw badRequest(
          `images must hold ${minImages === maxImages ? minImages : `${minImages}-${maxImages}`} image URL(s) or base64 data URI(s)`,
          'images',
        );
      }
    }
    const [minDuration, maxDuration] = durationRange(model);
    const duration =
      intField(body, 'duration', { min: minDuration, max: maxDuration }) ??
      Math.min(5, maxDuration);
    const ratios = model.startsWith('viduq1')
      ? ['16:9', '9:16', '1:1']
      : ['16:9', '9:16', '1:1', '3:4', '4:3'];
    const aspect = stringField(body, 'aspect_ratio', { oneOf: ratios }) ?? '16:9';
    const resolution =
      stringField(body, 'resolution', { oneOf: ['360p', '540p', '720p', '1080p'] }) ?? '720p';
    stringField(body, 'movement_amplitude', { oneOf: ['auto', 'small', 'medium', 'large'] });
    stringField(body, 'style', { oneOf: ['general', 'anime'] });
    intField(body, 'seed', { min: 0, max: 2 ** 32 - 1 });
    for (const flag of ['bgm', 'audio', 'watermark', 'off_peak']) boolField(body, flag);
    const payload = stringField(body, 'payload', { max: 1_048_576 }) ?? '';
    stringField(body, 'callback_url');
    const task = createTask(ctx, {
      id: numericId(18),
      model,
      video: { duration, ...sizeFor(resolution, aspect), image: imageBytesOf(body.images) },
      extra: { payload, credits: duration * 2 },
    });
    const { images: _images, ...echo } = body;
    sendJson(ctx, 200, {
      ...echo,
      task_id: task.id,
      state: 'created',
      model,
      duration,
      aspect_ratio: aspect,
      resolution,
      credits: task.extra.credits,
      created_at: isoTime(task.createdAt),
    });
  };
}

const STATE = {
  queued: 'queueing',
  running: 'processing',
  succeeded: 'success',
  failed: 'failed',
  cancelled: 'failed',
} as const;

function creations(ctx: Ctx): void {
  checkAuth(ctx);
  const task = findTask(ctx, ctx.params[0]!, 'task not found');
  const phase = phaseOf(task);
  sendJson(ctx, 200, {
    id: task.id,
    state: STATE[phase],
    err_code:
      phase === 'failed' ? 'InternalServiceFailure' : phase === 'cancelled' ? 'TaskCanceled' : '',
    err_msg: phase === 'failed' ? task.failMessage : undefined,
    credits: phase === 'succeeded' ? task.extra.credits : 0,
    payload: task.extra.payload,
    creations: phase === 'succeeded' ? [creation(ctx, task)] : [],
  });
}

function creation(ctx: Ctx, task: Task) {
  const url = mediaUrl(ctx, task);
  return { id: `${task.id}1`, url, cover_url: `${url}?cover=1`, watermarked_url: url };
}

function cancel(ctx: Ctx): void {
  checkAuth(ctx);
  const task = findTask(ctx, ctx.params[0]!, 'task not found');
  if (phaseOf(task) !== 'queued') throw badRequest('task state is scheduled, can not cancel');
  task.cancelledAt = Date.now();
  sendJson(ctx, 200, {});
}

export const viduRoutes: RouteDef[] = [
  { method: 'POST', path: '/ent/v2/text2video', handler: submit('text2video') },
  { method: 'POST', path: '/ent/v2/img2video', handler: submit('img2video') },
  { method: 'POST', path: '/ent/v2/start-end2video', handler: submit('start-end2video') },
  { method: 'POST', path: '/ent/v2/reference2video', handler: submit('reference2video') },
  { method: 'GET', path: '/ent/v2/tasks/{id}/creations', handler: creations },
  { method: 'POST', path: '/ent/v2/tasks/{id}/cancel', handler: cancel },
  mediaRoute('/vidu'),
];
