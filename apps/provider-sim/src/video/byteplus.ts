// wire: docs/providers.md#6-byteplus-modelark-seedance — BytePlus ModelArk (Seedance) content generation tasks.
// Served at {sim}/byteplus/api/v3. Parameters are accepted as top-level fields or as the legacy
// inline prompt flags (`--resolution 720p --duration 5 …`), both validated the same way.
import type { Ctx, ErrorSpec, Provider } from '../context.js';
import { badRequest, HttpError, isRecord } from '../errors.js';
import { sendJson } from '../respond.js';
import type { RouteDef } from '../router.js';
import {
  boolField,
  createTask,
  findTask,
  imageBytesOf,
  intField,
  isImageRef,
  mediaRoute,
  mediaUrl,
  objectBody,
  requireApiKey,
  sizeFor,
  stringField,
  unixSeconds,
} from './common.js';
import { finishedAt, phaseOf, type Task } from './tasks.js';

const ERROR_BY_STATUS: Record<number, { code: string; type: string }> = {
  400: { code: 'InvalidParameter', type: 'BadRequest' },
  401: { code: 'AuthenticationError', type: 'Unauthorized' },
  403: { code: 'AccessDenied', type: 'Forbidden' },
  404: { code: 'InvalidEndpoint.NotFound', type: 'NotFound' },
  429: { code: 'RateLimitExceeded.EndpointRPMExceeded', type: 'TooManyRequests' },
  500: { code: 'InternalServiceError', type: 'InternalServerError' },
  503: { code: 'ServiceUnavailable', type: 'ServiceUnavailable' },
};

export const byteplusProvider: Provider = {
  id: 'byteplus',
  prefix: '/byteplus/api/v3',
  requestIdHeader: 'x-client-request-id',
  renderError(error: ErrorSpec) {
    const known = ERROR_BY_STATUS[error.status] ?? {
      code: 'InternalServiceError',
      type: 'InternalServerError',
    };
    return {
      status: error.status,
      body: {
        error: {
          code: error.code ?? known.code,
          message: error.message,
          param: error.param ?? '',
          type: known.type,
        },
      },
    };
  },
};

const RATIOS = ['21:9', '16:9', '4:3', '1:1', '3:4', '9:16', 'adaptive'];
const ROLES = [
  'first_frame',
  'last_frame',
  'reference_image',
  'reference_video',
  'reference_audio',
];
const FPS = 24;

function checkAuth(ctx: Ctx): void {
  requireApiKey(ctx, 'The API key or AK/SK in the request is missing or invalid.');
}

/** Legacy inline flags in the text prompt, e.g. `--resolution 720p --dur 5 --camerafixed false`. */
function inlineFlags(text: string): Record<string, unknown> {
  const flags: Record<string, unknown> = {};
  const names: Record<string, string> = {
    resolution: 'resolution',
    rs: 'resolution',
    ratio: 'ratio',
    rt: 'ratio',
    duration: 'duration',
    dur: 'duration',
    seed: 'seed',
    camerafixed: 'camera_fixed',
    cf: 'camera_fixed',
    watermark: 'watermark',
    wm: 'watermark',
  };
  for (const match of text.matchAll(/--([a-z]+)\s+(\S+)/g)) {
    const name = names[match[1]!];
    if (!name) continue;
    const raw = match[2]!;
    flags[name] =
      raw === 'true' ? true : raw === 'false' ? false : /^-?\d+$/.test(raw) ? Number(raw) : raw;
  }
  return flags;
}

function submit(ctx: Ctx): void {
  checkAuth(ctx);
  const body = objectBody(ctx);
  const model = stringField(body, 'model', { required: true })!;
  if (model.startsWith('unknown-'))
    throw new HttpError({
      status: 404,
      code: 'InvalidEndpointOrModel.NotFound',
      message: `The model or endpoint ${model} does not exist or you do not have access to it.`,
    });
  if (!Array.isArray(body.content) || body.content.length === 0)
    throw badRequest('content is required', 'content', 'MissingParameter');
  let prompt = '';
  let images = 0;
  body.content.forEach((item, i) => {
    if (!isRecord(item)) throw badRequest(`content[${i}] must be an object`, `content[${i}]`);
    if (item.role !== undefined && !ROLES.includes(item.role as string))
      throw badRequest(
        `content[${i}].role must be one of ${ROLES.join(', ')}`,
        `content[${i}].role`,
      );
    if (item.type === 'text') {
      if (typeof item.text !== 'string')
        throw badRequest(`content[${i}].text must be a string`, `content[${i}].text`);
      prompt += item.text;
    } else if (item.type === 'image_url') {
      if (!isRecord(item.image_url) || !isImageRef(item.image_url.url))
        throw badRequest(
          `content[${i}].image_url.url must be an image URL or a base64 data URI`,
          `content[${i}].image_url`,
        );
      images++;
    } else if (item.type !== 'video_url' && item.type !== 'audio_url') {
      throw badRequest(
        `content[${i}].type must be text, image_url, video_url or audio_url`,
        `content[${i}].type`,
      );
    }
  });
  if (prompt === '' && images === 0)
    throw badRequest('content needs a text prompt or an image', 'content', 'MissingParameter');
  // Top-level fields win over inline flags when both are given.
  const params = { ...inlineFlags(prompt), ...body };
  const resolution =
    stringField(params, 'resolution', { oneOf: ['480p', '720p', '1080p'] }) ?? '720p';
  const ratio =
    stringField(params, 'ratio', { oneOf: RATIOS }) ?? (images > 0 ? 'adaptive' : '16:9');
  let duration = intField(params, 'duration', { min: -1, max: 15 }) ?? 5;
  if (duration === 0 || (duration > 0 && duration < 2))
    throw badRequest('duration must be between 2 and 15, or -1 (auto)', 'duration');
  if (duration === -1) duration = 5;
  const seed =
    intField(params, 'seed', { min: -1, max: 4294967295 }) ?? Math.floor(Math.random() * 2 ** 31);
  for (const flag of ['camera_fixed', 'watermark', 'generate_audio', 'return_last_frame', 'draft'])
    boolField(params, flag);
  intField(params, 'execution_expires_after', { min: 3600, max: 259200 });
  stringField(params, 'callback_url');
  const stamp = new Date().toISOString().replace(/\D/g, '').slice(0, 14);
  const task = createTask(ctx, {
    id: `cgt-${stamp}-${Math.random().toString(36).slice(2, 7)}`,
    model,
    video: {
      duration,
      ...sizeFor(resolution, ratio === 'adaptive' ? '16:9' : ratio),
      image: imageBytesOf(
        body.content.find(
          (item) => isRecord(item) && item.type === 'image_url' && item.role !== 'last_frame',
        )?.image_url,
      ),
    },
    extra: {
      resolution,
      ratio,
      seed,
      generateAudio: params.generate_audio ?? true,
      serviceTier: params.service_tier ?? 'default',
      expiresAfter: params.execution_expires_after ?? 172800,
    },
  });
  sendJson(ctx, 200, { id: task.id });
}

const STATUS = {
  queued: 'queued',
  running: 'running',
  succeeded: 'succeeded',
  failed: 'failed',
  cancelled: 'cancelled',
} as const;

function view(ctx: Ctx, task: Task): Record<string, unknown> {
  const phase = phaseOf(task);
  const { width, height, duration } = task.video;
  const tokens = Math.round((width * height * FPS * duration) / 1024);
  const result: Record<string, unknown> = {
    id: task.id,
    model: task.model,
    status: STATUS[phase],
    error: phase === 'failed' ? { code: 'InternalServiceError', message: task.failMessage } : null,
    created_at: Math.floor(task.createdAt / 1000),
    updated_at: unixSeconds(finishedAt(task) ?? Date.now()),
    seed: task.extra.seed,
    resolution: task.extra.resolution,
    ratio: task.extra.ratio,
    duration,
    framespersecond: FPS,
    generate_audio: task.extra.generateAudio,
    service_tier: task.extra.serviceTier,
    execution_expires_after: task.extra.expiresAfter,
  };
  if (phase === 'succeeded') {
    result.content = { video_url: mediaUrl(ctx, task) };
    result.usage = { completion_tokens: tokens, total_tokens: tokens };
  }
  return result;
}

function poll(ctx: Ctx): void {
  checkAuth(ctx);
  sendJson(
    ctx,
    200,
    view(ctx, findTask(ctx, ctx.params[0]!, `The specified task ${ctx.params[0]} is not found.`)),
  );
}

/** Queued → cancelled; running or cancelled → refused; finished → the record is deleted. */
function cancel(ctx: Ctx): void {
  checkAuth(ctx);
  const task = findTask(ctx, ctx.params[0]!, `The specified task ${ctx.params[0]} is not found.`);
  const phase = phaseOf(task);
  if (phase === 'queued') task.cancelledAt = Date.now();
  else if (phase === 'running' || phase === 'cancelled') {
    throw new HttpError({
      status: 400,
      code: 'InvalidAction.TaskNotCancellable',
      message: `The task ${task.id} is ${phase} and cannot be cancelled or deleted.`,
    });
  } else ctx.sim.tasks.delete(task.id);
  sendJson(ctx, 200, {});
}

export const byteplusRoutes: RouteDef[] = [
  { method: 'POST', path: '/contents/generations/tasks', handler: submit },
  { method: 'GET', path: '/contents/generations/tasks/{id}', handler: poll },
  { method: 'DELETE', path: '/contents/generations/tasks/{id}', handler: cancel },
  mediaRoute('/byteplus/api/v3'),
];
