// wire: docs/providers.md#10-runway — Runway image_to_video (gen4_turbo) and tasks.
// Served at {sim}/runway. Requires `X-Runway-Version: 2024-11-06`. promptImage must be HTTPS on a
// domain (no IP) or a data URI, as upstream fetches only those.
import type { Ctx, ErrorSpec, Provider } from '../context.js';
import { badRequest, isRecord } from '../errors.js';
import { sendEmpty, sendJson } from '../respond.js';
import type { RouteDef } from '../router.js';
import {
  createTask,
  findTask,
  imageBytesOf,
  intField,
  isoTime,
  mediaRoute,
  mediaUrl,
  objectBody,
  requireApiKey,
  stringField,
  uuid,
} from './common.js';
import { phaseOf, progressOf } from './tasks.js';

export const runwayProvider: Provider = {
  id: 'runway',
  prefix: '/runway',
  renderError(error: ErrorSpec) {
    return { status: error.status, body: { error: error.message } };
  },
};

const VERSION = '2024-11-06';
const RATIOS = ['1280:720', '720:1280', '1104:832', '832:1104', '960:960', '1584:672'];
const MODELS = ['gen4_turbo', 'gen3a_turbo'];
/** Credits per second of video, as Runway prices these models. */
const CREDITS_PER_SECOND: Record<string, number> = { gen4_turbo: 5, gen3a_turbo: 5 };

function checkHeaders(ctx: Ctx): void {
  requireApiKey(
    ctx,
    'Invalid API key. Make sure you are using a key from the developer portal (key_...).',
  );
  const version = ctx.req.headers['x-runway-version'];
  if (!version) throw badRequest('You must provide a X-Runway-Version header.');
  if (version !== VERSION)
    throw badRequest(`Invalid X-Runway-Version header: ${version}. Supported: ${VERSION}.`);
}

/** HTTPS on a domain (no IP literal), or an image data URI. */
function acceptableImage(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  if (/^data:image\/[a-z0-9.+-]+;base64,/i.test(value)) return true;
  try {
    const url = new URL(value);
    const isIp = /^[\d.]+$/.test(url.hostname) || url.hostname.startsWith('[');
    return url.protocol === 'https:' && !isIp;
  } catch {
    return false;
  }
}

function checkPromptImage(value: unknown): void {
  if (value === undefined) throw badRequest('promptImage: Required');
  if (Array.isArray(value)) {
    const ok =
      value.length > 0 &&
      value.every(
        (item) =>
          isRecord(item) &&
          acceptableImage(item.uri) &&
          (item.position === 'first' || item.position === 'last'),
      );
    if (ok) return;
  } else if (acceptableImage(value)) return;
  throw badRequest(
    'promptImage: must be an HTTPS URL on a domain, a data URI, or [{uri, position}]',
  );
}

function submit(ctx: Ctx): void {
  checkHeaders(ctx);
  const body = objectBody(ctx);
  const model = stringField(body, 'model', { required: true, oneOf: MODELS }, 'model')!;
  checkPromptImage(body.promptImage);
  const ratio = stringField(body, 'ratio', { required: true, oneOf: RATIOS })!;
  const text = stringField(body, 'promptText');
  // The limit is in UTF-16 code units, which is what String#length counts.
  if (text !== undefined && text.length > 1000)
    throw badRequest('promptText: must be at most 1000 characters');
  const duration = intField(body, 'duration', { min: 2, max: 10 }) ?? 5;
  intField(body, 'seed', { min: 0, max: 4294967295 });
  if (body.contentModeration !== undefined && !isRecord(body.contentModeration))
    throw badRequest('contentModeration: must be an object');
  const [width, height] = ratio.split(':').map(Number) as [number, number];
  const image = imageBytesOf(body.promptImage);
  const task = createTask(ctx, { id: uuid(), model, video: { duration, width, height, image } });
  // `@runwayml/sdk` 4.20 declares the create answer's `estimatedCost` required, as the tasks'.
  sendJson(ctx, 200, { id: task.id, ...costOf(model, duration, 'queued') });
}

const STATUS = {
  queued: 'PENDING',
  running: 'RUNNING',
  succeeded: 'SUCCEEDED',
  failed: 'FAILED',
  cancelled: 'CANCELLED',
} as const;

/**
 * Runway's task objects carry `estimatedCost` while the task may still run and `cost` once it
 * has ended (`@runwayml/sdk` 4.14+ declares them required; 4.20 the create answer's
 * `estimatedCost` too): only a success is charged.
 */
function costOf(model: string, seconds: number, phase: keyof typeof STATUS) {
  const credits = (CREDITS_PER_SECOND[model] ?? 5) * seconds;
  if (phase === 'queued' || phase === 'running') return { estimatedCost: { credits } };
  return { cost: { credits: phase === 'succeeded' ? credits : 0 } };
}

function poll(ctx: Ctx): void {
  checkHeaders(ctx);
  const task = findTask(ctx, ctx.params[0]!, 'Task not found.');
  const phase = phaseOf(task);
  const body: Record<string, unknown> = {
    id: task.id,
    createdAt: isoTime(task.createdAt),
    status: STATUS[phase],
    ...costOf(task.model, task.video.duration, phase),
  };
  if (phase === 'running') body.progress = Math.round(progressOf(task) * 1000) / 1000;
  if (phase === 'succeeded') body.output = [mediaUrl(ctx, task)];
  if (phase === 'failed') {
    body.failure = task.failMessage;
    body.failureCode = 'INTERNAL.BAD_OUTPUT.CODE01';
  }
  sendJson(ctx, 200, body);
}

/** Running or pending tasks are cancelled; others are deleted (then 404). */
function cancelOrDelete(ctx: Ctx): void {
  checkHeaders(ctx);
  const task = findTask(ctx, ctx.params[0]!, 'Task not found.');
  const phase = phaseOf(task);
  if (phase === 'queued' || phase === 'running') task.cancelledAt = Date.now();
  else ctx.sim.tasks.delete(task.id);
  sendEmpty(ctx, 204);
}

export const runwayRoutes: RouteDef[] = [
  { method: 'POST', path: '/v1/image_to_video', handler: submit },
  { method: 'GET', path: '/v1/tasks/{id}', handler: poll },
  { method: 'DELETE', path: '/v1/tasks/{id}', handler: cancelOrDelete },
  mediaRoute('/runway'),
];
