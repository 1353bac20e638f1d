// wire: docs/providers.md#11-luma-dream-machine — Luma Dream Machine generations. Served at {sim}/luma/dream-machine/v1.
// `POST /generations/video` and the legacy `POST /generations` (**unconfirmed**) both work.
// callback_url is validated but not called.
import type { Ctx, ErrorSpec, Provider } from '../context.js';
import { badRequest, isRecord } from '../errors.js';
import { sendEmpty, sendJson } from '../respond.js';
import type { RouteDef } from '../router.js';
import {
  boolField,
  createTask,
  findTask,
  imageBytesOf,
  isoTime,
  mediaRoute,
  mediaUrl,
  objectBody,
  requireApiKey,
  sizeFor,
  stringField,
  uuid,
} from './common.js';
import { phaseOf, type Task } from './tasks.js';

export const lumaProvider: Provider = {
  id: 'luma',
  prefix: '/luma/dream-machine/v1',
  renderError(error: ErrorSpec) {
    return { status: error.status, body: { detail: error.message } };
  },
};

const MODELS = ['ray-2', 'ray-flash-2', 'ray-1-6'];
const RATIOS = ['1:1', '16:9', '9:16', '4:3', '3:4', '21:9', '9:21'];

function checkAuth(ctx: Ctx): void {
  requireApiKey(ctx, 'Invalid API key is provided');
}

function checkKeyframe(value: unknown, name: string): void {
  if (value === undefined) return;
  const ok =
    isRecord(value) &&
    ((value.type === 'image' && typeof value.url === 'string' && /^https?:\/\//.test(value.url)) ||
      (value.type === 'generation' && typeof value.id === 'string'));
  if (!ok)
    throw badRequest(
      `keyframes.${name} must be {type:"image", url} or {type:"generation", id}`,
      `keyframes.${name}`,
    );
}

/** The generation as it stands at `now` (the creation response shows it as created: queued). */
function generation(ctx: Ctx, task: Task, now = Date.now()): Record<string, unknown> {
  const phase = phaseOf(task, now);
  const state =
    phase === 'queued'
      ? 'queued'
      : phase === 'running'
        ? 'dreaming'
        : phase === 'succeeded'
          ? 'completed'
          : 'failed';
  return {
    id: task.id,
    generation_type: 'video',
    state,
    failure_reason:
      phase === 'failed'
        ? task.failMessage
        : phase === 'cancelled'
          ? 'Generation was cancelled'
          : null,
    created_at: isoTime(task.createdAt),
    model: task.model,
    assets: phase === 'succeeded' ? { video: mediaUrl(ctx, task) } : null,
    version: 'v1.0',
    request: task.extra.request,
  };
}

function submit(ctx: Ctx): void {
  checkAuth(ctx);
  const body = objectBody(ctx);
  const model = stringField(body, 'model', { required: true, oneOf: MODELS })!;
  stringField(body, 'prompt', { max: 5000 });
  const aspect = stringField(body, 'aspect_ratio', { oneOf: RATIOS }) ?? '16:9';
  const duration = stringField(body, 'duration', { oneOf: ['5s', '9s'] }) ?? '5s';
  const resolution =
    stringField(body, 'resolution', { oneOf: ['540p', '720p', '1080p', '4k'] }) ?? '720p';
  boolField(body, 'loop');
  if (body.keyframes !== undefined) {
    if (!isRecord(body.keyframes)) throw badRequest('keyframes must be an object', 'keyframes');
    checkKeyframe(body.keyframes.frame0, 'frame0');
    checkKeyframe(body.keyframes.frame1, 'frame1');
  }
  if (!body.prompt && body.keyframes === undefined)
    throw badRequest('prompt is required', 'prompt');
  stringField(body, 'callback_url');
  const task = createTask(ctx, {
    id: uuid(),
    model,
    video: {
      duration: Number.parseInt(duration, 10),
      ...sizeFor(resolution, aspect),
      image: isRecord(body.keyframes) ? imageBytesOf(body.keyframes.frame0) : undefined,
    },
    extra: { request: body },
  });
  sendJson(ctx, 201, generation(ctx, task, task.createdAt));
}

function poll(ctx: Ctx): void {
  checkAuth(ctx);
  sendJson(ctx, 200, generation(ctx, findTask(ctx, ctx.params[0]!, 'Generation not found')));
}

/** Deletes the generation (a running one stops: effect upstream is **unconfirmed**). */
function remove(ctx: Ctx): void {
  checkAuth(ctx);
  const task = findTask(ctx, ctx.params[0]!, 'Generation not found');
  ctx.sim.tasks.delete(task.id);
  sendEmpty(ctx, 204);
}

export const lumaRoutes: RouteDef[] = [
  { method: 'POST', path: '/generations/video', handler: submit },
  { method: 'POST', path: '/generations', handler: submit },
  { method: 'GET', path: '/generations/{id}', handler: poll },
  { method: 'DELETE', path: '/generations/{id}', handler: remove },
  mediaRoute('/luma/dream-machine/v1'),
];
