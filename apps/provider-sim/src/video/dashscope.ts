// wire: docs/providers.md#8-alibaba-cloud-dashscope-wan — Alibaba DashScope Wan (async video synthesis + task query).
// Served at {sim}/dashscope/api/v1. Submit requires `X-DashScope-Async: enable`.
// Cancel path `POST /tasks/{id}/cancel` is **unconfirmed** upstream; accepted here for PENDING tasks.
import { randomUUID } from 'node:crypto';
import type { Ctx, ErrorSpec, Provider } from '../context.js';
import { badRequest, HttpError, isRecord } from '../errors.js';
import { sendJson } from '../respond.js';
import type { RouteDef } from '../router.js';
import {
  boolField,
  createTask,
  imageBytesOf,
  intField,
  isImageRef,
  mediaRoute,
  mediaUrl,
  objectBody,
  requireApiKey,
  sizeFor,
  stringField,
  uuid,
} from './common.js';
import { finishedAt, phaseOf, type Task } from './tasks.js';

const CODE_BY_STATUS: Record<number, string> = {
  400: 'InvalidParameter',
  401: 'InvalidApiKey',
  403: 'AccessDenied',
  404: 'NotFound',
  429: 'Throttling.RateQuota',
  500: 'InternalError',
  503: 'ServiceUnavailable',
};

export const dashscopeProvider: Provider = {
  id: 'dashscope',
  prefix: '/dashscope/api/v1',
  renderError(error: ErrorSpec, ctx: Ctx) {
    return {
      status: error.status,
      body: {
        request_id: ctx.requestId,
        code: error.code ?? CODE_BY_STATUS[error.status] ?? 'InternalError',
        message: error.message,
      },
    };
  },
};

const T2V_SIZES = [
  '1280*720',
  '720*1280',
  '960*960',
  '1088*832',
  '832*1088',
  '1920*1080',
  '1080*1920',
  '1440*1440',
  '1632*1248',
  '1248*1632',
];

function checkAuth(ctx: Ctx): void {
  requireApiKey(ctx, 'Invalid API-key provided.');
}

/** `2026-02-25 11:07:28.590` (the service's own timestamp format). */
function stamp(ms: number): string {
  return new Date(ms).toISOString().replace('T', ' ').replace('Z', '');
}

function submit(ctx: Ctx): void {
  checkAuth(ctx);
  if (String(ctx.req.headers['x-dashscope-async'] ?? '').toLowerCase() !== 'enable') {
    throw new HttpError({
      status: 403,
      code: 'AccessDenied',
      message: 'current user api does not support synchronous calls',
    });
  }
  const body = objectBody(ctx);
  const model = stringField(body, 'model', { required: true })!;
  if (model.startsWith('unknown-'))
    throw new HttpError({
      status: 400,
      code: 'InvalidParameter',
      message: `Model not exist: ${model}`,
    });
  if (!isRecord(body.input)) throw badRequest('input is required', 'input');
  const input = body.input;
  const imageToVideo = model.includes('i2v');
  const prompt = stringField(input, 'prompt', { max: 1500 }, 'input.prompt');
  stringField(input, 'negative_prompt', { max: 500 }, 'input.negative_prompt');
  if (imageToVideo) {
    if (!isImageRef(input.img_url))
      throw badRequest('input.img_url must be an image URL or data URI', 'input.img_url');
  } else if (!prompt) {
    throw badRequest('input.prompt is required', 'input.prompt');
  }
  const parameters = body.parameters === undefined ? {} : body.parameters;
  if (!isRecord(parameters)) throw badRequest('parameters must be an object', 'parameters');
  let size: { width: number; height: number };
  if (imageToVideo) {
    const resolution =
      stringField(
        parameters,
        'resolution',
        { oneOf: ['480P', '720P', '1080P'] },
        'parameters.resolution',
      ) ?? '1080P';
    size = sizeFor(resolution, '16:9');
  } else {
    const text =
      stringField(parameters, 'size', { oneOf: T2V_SIZES }, 'parameters.size') ?? '1920*1080';
    const [w, h] = text.split('*').map(Number);
    size = { width: w!, height: h! };
  }
  // Documented as 5/10/15, newer pages say any 2–15: accept the wider range.
  const duration =
    intField(parameters, 'duration', { min: 2, max: 15 }, 'parameters.duration') ?? 5;
  intField(parameters, 'seed', { min: 0, max: 2147483647 }, 'parameters.seed');
  const extend = boolField(parameters, 'prompt_extend', 'parameters.prompt_extend') ?? true;
  const shot = stringField(
    parameters,
    'shot_type',
    { oneOf: ['single', 'multi'] },
    'parameters.shot_type',
  );
  if (shot === 'multi' && !extend)
    throw badRequest('shot_type multi requires prompt_extend', 'parameters.shot_type');
  boolField(parameters, 'watermark', 'parameters.watermark');
  boolField(parameters, 'audio', 'parameters.audio');
  const task = createTask(ctx, {
    id: uuid(),
    model,
    video: { duration, ...size, image: imageToVideo ? imageBytesOf(input.img_url) : undefined },
    extra: { prompt: prompt ?? '' },
  });
  sendJson(ctx, 200, {
    request_id: ctx.requestId,
    output: { task_id: task.id, task_status: 'PENDING' },
  });
}

const STATUS = {
  queued: 'PENDING',
  running: 'RUNNING',
  succeeded: 'SUCCEEDED',
  failed: 'FAILED',
  cancelled: 'CANCELED',
} as const;

function view(ctx: Ctx, task: Task): Record<string, unknown> {
  const phase = phaseOf(task);
  const output: Record<string, unknown> = {
    task_id: task.id,
    task_status: STATUS[phase],
    submit_time: stamp(task.createdAt),
  };
  if (phase !== 'queued' && phase !== 'cancelled')
    output.scheduled_time = stamp(task.createdAt + task.processingMs * 0.2);
  const end = finishedAt(task);
  if (end !== null) output.end_time = stamp(end);
  const body: Record<string, unknown> = { request_id: ctx.requestId, output };
  if (phase === 'succeeded') {
    output.video_url = mediaUrl(ctx, task);
    output.orig_prompt = task.extra.prompt;
    output.actual_prompt = task.extra.prompt;
    body.usage = {
      video_duration: task.video.duration,
      video_count: 1,
      SR: Math.min(task.video.width, task.video.height),
    };
  }
  if (phase === 'failed') {
    output.code = 'InternalError.Algo';
    output.message = task.failMessage;
  }
  return body;
}

function poll(ctx: Ctx): void {
  checkAuth(ctx);
  const task = ctx.sim.tasks.get('dashscope', ctx.params[0]!);
  if (!task) {
    // Unknown or expired ids answer 200 with UNKNOWN, as upstream does.
    sendJson(ctx, 200, {
      request_id: randomUUID(),
      output: { task_id: ctx.params[0], task_status: 'UNKNOWN' },
    });
    return;
  }
  sendJson(ctx, 200, view(ctx, task));
}

function cancel(ctx: Ctx): void {
  checkAuth(ctx);
  const task = ctx.sim.tasks.get('dashscope', ctx.params[0]!);
  if (!task)
    throw new HttpError({
      status: 404,
      code: 'InvalidParameter.TaskNotExist',
      message: 'task not exist',
    });
  if (phaseOf(task) !== 'queued') {
    throw new HttpError({
      status: 400,
      code: 'UnsupportedOperation',
      message: 'Only PENDING tasks can be canceled.',
    });
  }
  task.cancelledAt = Date.now();
  sendJson(ctx, 200, { request_id: ctx.requestId });
}

export const dashscopeRoutes: RouteDef[] = [
  { method: 'POST', path: '/services/aigc/video-generation/video-synthesis', handler: submit },
  { method: 'GET', path: '/tasks/{id}', handler: poll },
  { method: 'POST', path: '/tasks/{id}/cancel', handler: cancel },
  mediaRoute('/dashscope/api/v1'),
];
