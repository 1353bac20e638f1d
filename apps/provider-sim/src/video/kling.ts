// wire: docs/providers.md#5-kling — Kling official API. Served at {sim}/kling.
// Auth: `Bearer <JWT>` signed HS256 with the configured secret key, iss = access key, exp/nbf
// checked. Polls must use the submit's path kind (text2video vs image2video). No cancel.
// `external_task_id` is unique per account (a second submit reusing one is refused) and the
// single-task query takes it in place of the task id.
import type { Ctx, ErrorSpec, Provider } from '../context.js';
import { authToken, badRequest, HttpError } from '../errors.js';
import { sendJson } from '../respond.js';
import type { RouteDef } from '../router.js';
import {
  createTask,
  imageBytesOf,
  mediaRoute,
  mediaUrl,
  numberField,
  numericId,
  objectBody,
  sizeFor,
  stringField,
} from './common.js';
import { verifyKlingJwt } from './jwt.js';
import { finishedAt, phaseOf, type Task } from './tasks.js';

const CODE_BY_STATUS: Record<number, number> = {
  400: 1201,
  401: 1000,
  403: 1103,
  404: 1203,
  429: 1302,
  500: 5000,
  503: 5001,
  504: 5002,
  529: 5001,
};

export const klingProvider: Provider = {
  id: 'kling',
  prefix: '/kling',
  renderError(error: ErrorSpec, ctx: Ctx) {
    const code =
      error.code !== undefined ? Number(error.code) : (CODE_BY_STATUS[error.status] ?? 5000);
    return {
      status: error.status,
      body: { code, message: error.message, request_id: ctx.requestId },
    };
  },
};

const MODELS = [
  'kling-v1',
  'kling-v1-5',
  'kling-v1-6',
  'kling-v2-master',
  'kling-v2-1',
  'kling-v2-1-master',
  'kling-v2-5-turbo',
  'kling-v2-6',
  'kling-v3',
];

const JWT_ERRORS = {
  empty: { code: '1001', message: 'Authorization is empty' },
  invalid: { code: '1002', message: 'Authorization is invalid' },
  not_yet_valid: { code: '1003', message: 'Authorization is not active yet' },
  expired: { code: '1004', message: 'Authorization has expired' },
} as const;

function checkAuth(ctx: Ctx): void {
  const { accessKey, secretKey } = ctx.sim.options.kling;
  const result = verifyKlingJwt(authToken(ctx.req.headers.authorization), accessKey, secretKey);
  if (!result.ok) throw new HttpError({ status: 401, ...JWT_ERRORS[result.reason] });
}

/** `duration` is a string ("5"); integers are tolerated. kling-v3 takes 3–15, others 5 or 10. */
function readDuration(body: Record<string, unknown>, model: string): number {
  const raw = body.duration;
  if (raw === undefined || raw === null) return 5;
  const text = typeof raw === 'number' ? String(raw) : raw;
  if (typeof text !== 'string' || !/^\d+$/.test(text))
    throw badRequest('duration must be a string such as "5"', 'duration');
  const value = Number(text);
  const ok = model === 'kling-v3' ? value >= 3 && value <= 15 : value === 5 || value === 10;
  if (!ok) throw badRequest(`duration ${text} is not supported by ${model}`, 'duration');
  return value;
}

function commonFields(body: Record<string, unknown>): {
  model: string;
  mode: string;
  duration: number;
} {
  // Without model_name (or with the legacy `model` field) Kling means kling-v1.
  const model = stringField(body, 'model_name') ?? 'kling-v1';
  if (!MODELS.includes(model))
    throw badRequest(`model_name must be one of ${MODELS.join(', ')}`, 'model_name');
  stringField(body, 'negative_prompt', { max: 2500 });
  numberField(body, 'cfg_scale', 0, 1);
  const mode = stringField(body, 'mode', { oneOf: ['std', 'pro'] }) ?? 'std';
  stringField(body, 'sound', { oneOf: ['on', 'off'] });
  stringField(body, 'callback_url');
  return { model, mode, duration: readDuration(body, model) };
}

/** An image for image2video: a URL, or raw base64 WITHOUT a `data:` prefix. */
function checkImage(value: unknown, param: string): boolean {
  if (value === undefined || value === null || value === '') return false;
  if (typeof value !== 'string') throw badRequest(`${param} must be a string`, param);
  if (value.startsWith('data:'))
    throw badRequest(`${param}: base64 must not include a data: prefix`, param);
  if (!/^https?:\/\//.test(value) && !/^[A-Za-z0-9+/=\s]+$/.test(value))
    throw badRequest(`${param} must be a URL or base64`, param);
  return true;
}

/** Store key of an external_task_id (the sim is one account, so it is unique across it). */
const externalAlias = (id: string) => `kling-external:${id}`;

/** The caller's `external_task_id`, refused when an earlier task already took it. */
function readExternalId(ctx: Ctx, body: Record<string, unknown>): string | undefined {
  const id = stringField(body, 'external_task_id');
  if (id && ctx.sim.tasks.byAlias('kling', externalAlias(id))) {
    throw badRequest(`external_task_id ${id} already exists`, 'external_task_id', '1201');
  }
  return id;
}

/** Creates the task and registers its external_task_id. */
function createKlingTask(
  ctx: Ctx,
  init: { model: string; kind: string; externalId?: string; video: Task['video'] },
): Task {
  const task = createTask(ctx, {
    id: numericId(18),
    model: init.model,
    video: init.video,
    extra: { kind: init.kind, externalTaskId: init.externalId },
  });
  if (init.externalId) ctx.sim.tasks.alias(externalAlias(init.externalId), task.id);
  return task;
}

function submitted(ctx: Ctx, task: Task): void {
  const externalId = task.extra.externalTaskId;
  sendJson(ctx, 200, {
    code: 0,
    message: 'SUCCEED',
    request_id: ctx.requestId,
    data: {
      task_id: task.id,
      task_status: 'submitted',
      task_info: externalId ? { external_task_id: externalId } : {},
      created_at: task.createdAt,
      updated_at: task.createdAt,
    },
  });
}

function sizeForMode(mode: string, aspect: string) {
  return sizeFor(mode === 'pro' ? '1080p' : '720p', aspect);
}

function text2video(ctx: Ctx): void {
  checkAuth(ctx);
  const body = objectBody(ctx);
  const { model, mode, duration } = commonFields(body);
  stringField(body, 'prompt', { required: true, max: 2500 });
  const aspect = stringField(body, 'aspect_ratio', { oneOf: ['16:9', '9:16', '1:1'] }) ?? '16:9';
  const task = createKlingTask(ctx, {
    model,
    kind: 'text2video',
    externalId: readExternalId(ctx, body),
    video: { duration, ...sizeForMode(mode, aspect) },
  });
  submitted(ctx, task);
}

function image2video(ctx: Ctx): void {
  checkAuth(ctx);
  const body = objectBody(ctx);
  const { model, mode, duration } = commonFields(body);
  stringField(body, 'prompt', { max: 2500 });
  const hasImage = checkImage(body.image, 'image');
  const hasTail = checkImage(body.image_tail, 'image_tail');
  if (!hasImage && !hasTail) throw badRequest('image or image_tail is required', 'image');
  const exclusive = [
    hasTail,
    body.static_mask !== undefined || body.dynamic_masks !== undefined,
    body.camera_control !== undefined,
  ];
  if (exclusive.filter(Boolean).length > 1) {
    throw badRequest(
      'image_tail, static_mask/dynamic_masks and camera_control are mutually exclusive',
      'image_tail',
    );
  }
  const task = createKlingTask(ctx, {
    model,
    kind: 'image2video',
    externalId: readExternalId(ctx, body),
    video: { duration, ...sizeForMode(mode, '16:9'), image: imageBytesOf(body.image) },
  });
  submitted(ctx, task);
}

const STATUS = {
  queued: 'submitted',
  running: 'processing',
  succeeded: 'succeed',
  failed: 'failed',
  cancelled: 'failed',
} as const;

function poll(kind: 'text2video' | 'image2video') {
  return (ctx: Ctx): void => {
    checkAuth(ctx);
    // The path id is Kling's task_id or the caller's external_task_id.
    const id = ctx.params[0]!;
    const task =
      ctx.sim.tasks.get('kling', id) ?? ctx.sim.tasks.byAlias('kling', externalAlias(id));
    if (!task || task.extra.kind !== kind)
      throw new HttpError({ status: 404, message: 'task not found' });
    const phase = phaseOf(task);
    const data: Record<string, unknown> = {
      task_id: task.id,
      task_status: STATUS[phase],
      task_status_msg:
        phase === 'failed' ? task.failMessage : phase === 'cancelled' ? 'task cancelled' : '',
      task_info: task.extra.externalTaskId ? { external_task_id: task.extra.externalTaskId } : {},
      created_at: task.createdAt,
      updated_at: finishedAt(task) ?? Date.now(),
    };
    if (phase === 'succeeded') {
      data.task_result = {
        videos: [
          {
            id: `${task.id}1`,
            url: mediaUrl(ctx, task),
            duration: (task.video.duration + 0.042).toFixed(3),
          },
        ],
      };
    }
    sendJson(ctx, 200, { code: 0, message: 'SUCCEED', request_id: ctx.requestId, data });
  };
}

export const klingRoutes: RouteDef[] = [
  { method: 'POST', path: '/v1/videos/text2video', handler: text2video },
  { method: 'POST', path: '/v1/videos/image2video', handler: image2video },
  { method: 'GET', path: '/v1/videos/text2video/{id}', handler: poll('text2video') },
  { method: 'GET', path: '/v1/videos/image2video/{id}', handler: poll('image2video') },
  mediaRoute('/kling'),
];
