// wire: docs/providers.md#3-xai — xAI video generations (Grok Imagine Video). Served at {sim}/xai/v1.
// Pending polls answer HTTP 202 with {status:"pending", progress}; no cancel route exists.
import type { Ctx, ErrorSpec, Provider } from '../context.js';
import { authToken, badRequest, HttpError, isRecord } from '../errors.js';
import { sendJson } from '../respond.js';
import type { RouteDef } from '../router.js';
import {
  createTask,
  findTask,
  imageBytesOf,
  intField,
  isImageRef,
  mediaRoute,
  mediaUrl,
  objectBody,
  sizeFor,
  stringField,
  uuid,
} from './common.js';
import { phaseOf, progressOf } from './tasks.js';

const CODE_BY_STATUS: Record<number, string> = {
  400: 'Client specified an invalid argument',
  401: 'Unauthenticated',
  403: 'Permission denied',
  404: 'Not found',
  415: 'Unsupported media type',
  422: 'Unprocessable entity',
  429: 'Too many requests',
};

export const xaiProvider: Provider = {
  id: 'xai',
  prefix: '/xai/v1',
  requestIdHeader: 'x-request-id',
  // Flat {code, error}: `code` is the reason, `error` the message.
  renderError(error: ErrorSpec) {
    return {
      status: error.status,
      body: {
        code: error.code ?? CODE_BY_STATUS[error.status] ?? 'Internal error',
        error: error.message,
      },
    };
  },
};

const RATIOS = ['16:9', '1:1', '9:16', '4:3', '3:4', '3:2', '2:3'] as const;
const RESOLUTIONS = ['480p', '720p', '1080p'] as const;
const MODELS = ['grok-imagine-video', 'grok-imagine-video-1.5'];

function checkAuth(ctx: Ctx): void {
  const key = authToken(ctx.req.headers.authorization);
  if (!key)
    throw new HttpError({
      status: 401,
      message: 'Missing or invalid Authorization header. Expected "Bearer <API key>".',
    });
  if (!ctx.sim.keyAccepted(key)) {
    throw new HttpError({
      status: 400,
      message: `Incorrect API key provided: ${key.slice(0, 2)}***${key.slice(-2)}. You can obtain an API key from https://console.x.ai.`,
    });
  }
}

/** `image` (or `input_reference`) as {url} / {image_url} / {file_id}, or a bare string. */
function readImage(body: Record<string, unknown>): boolean {
  const image = body.image ?? body.input_reference;
  if (image === undefined || image === null) return false;
  if (isImageRef(image)) return true;
  if (isRecord(image)) {
    const url = image.url ?? image.image_url;
    if (isImageRef(url) || typeof image.file_id === 'string') return true;
  }
  throw badRequest(
    'image must be {"url": <https URL or data:image/... base64>} or {"file_id": ...}',
    'image',
  );
}

function submit(ctx: Ctx): void {
  checkAuth(ctx);
  const type = ctx.req.headers['content-type'] ?? '';
  if (!type.includes('application/json')) {
    throw new HttpError({ status: 415, message: 'Content-Type must be application/json' });
  }
  const body = objectBody(ctx);
  const model = stringField(body, 'model') ?? 'grok-imagine-video';
  if (!MODELS.includes(model))
    throw new HttpError({
      status: 404,
      message: `The model ${model} does not exist or your team does not have access to it.`,
    });
  const hasImage = readImage(body);
  const prompt = stringField(body, 'prompt', { max: 4096 });
  if (!hasImage && (prompt === undefined || prompt.length === 0)) {
    throw new HttpError({
      status: 422,
      message: 'prompt is required unless image is given',
      param: 'prompt',
    });
  }
  const durationField = body.duration !== undefined ? 'duration' : 'seconds';
  const duration = intField(body, durationField, { min: 1, max: 15, numericString: true }) ?? 8;
  const aspect = stringField(body, 'aspect_ratio', { oneOf: RATIOS }) ?? '16:9';
  const resolution = stringField(body, 'resolution', { oneOf: RESOLUTIONS }) ?? '480p';
  if (resolution === '1080p' && model === 'grok-imagine-video') {
    throw badRequest('resolution 1080p is not supported by grok-imagine-video', 'resolution');
  }
  const task = createTask(ctx, {
    id: uuid(),
    model,
    video: {
      duration,
      ...sizeFor(resolution, aspect),
      image: imageBytesOf(body.image ?? body.input_reference),
    },
  });
  sendJson(ctx, 200, { request_id: task.id });
}

function poll(ctx: Ctx): void {
  checkAuth(ctx);
  const task = findTask(ctx, ctx.params[0]!, 'Request not found');
  const phase = phaseOf(task);
  if (phase === 'queued' || phase === 'running') {
    sendJson(ctx, 202, { status: 'pending', progress: Math.floor(progressOf(task) * 100) });
    return;
  }
  if (phase === 'failed') {
    sendJson(ctx, 200, {
      status: 'failed',
      error: { code: 'internal_error', message: task.failMessage },
    });
    return;
  }
  sendJson(ctx, 200, {
    status: 'done',
    video: { url: mediaUrl(ctx, task), duration: task.video.duration, respect_moderation: true },
    model: task.model,
    progress: 100,
    // 10^8 ticks = 1 US cent; $0.05 per second.
    usage: { cost_in_usd_ticks: task.video.duration * 500_000_000 },
  });
}

export const xaiRoutes: RouteDef[] = [
  { method: 'POST', path: '/videos/generations', handler: submit },
  { method: 'GET', path: '/videos/{id}', handler: poll },
  mediaRoute('/xai/v1'),
];
