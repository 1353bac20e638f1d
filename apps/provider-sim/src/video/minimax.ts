// wire: docs/providers.md#7-minimax-hailuo — MiniMax Hailuo: submit, query, then file retrieve → download_url.
// Served at {sim}/minimax. Business errors come in `base_resp` with HTTP 200 (as upstream);
// only injected faults (429/5xx) change the HTTP status. No cancel.
import type { Ctx, ErrorSpec, Provider } from '../context.js';
import { authToken, badRequest, HttpError } from '../errors.js';
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
  numericId,
  objectBody,
  serveVideo,
  stringField,
  unixSeconds,
} from './common.js';
import { buildMp4 } from './mp4.js';
import { phaseOf, progressOf, type Task } from './tasks.js';

const CODE_BY_STATUS: Record<number, number> = {
  400: 2013,
  401: 1004,
  402: 1008,
  404: 2013,
  429: 1002,
  500: 1024,
  503: 1024,
  504: 1001,
};

export const minimaxProvider: Provider = {
  id: 'minimax',
  prefix: '/minimax',
  requestIdHeader: 'trace-id',
  renderError(error: ErrorSpec) {
    const code =
      error.code !== undefined ? Number(error.code) : (CODE_BY_STATUS[error.status] ?? 1000);
    // Validation and auth failures are business errors: HTTP 200 with a non-zero status_code.
    const status = error.status < 429 ? 200 : error.status;
    return { status, body: { base_resp: { status_code: code, status_msg: error.message } } };
  },
};

const MODELS = [
  'MiniMax-Hailuo-2.3',
  'MiniMax-Hailuo-2.3-Fast',
  'MiniMax-Hailuo-02',
  'T2V-01-Director',
  'T2V-01',
  'I2V-01-Director',
  'I2V-01-live',
  'I2V-01',
  'S2V-01',
];
const SIZES: Record<string, { width: number; height: number }> = {
  '512P': { width: 912, height: 512 },
  '720P': { width: 1280, height: 720 },
  '768P': { width: 1366, height: 768 },
  '1080P': { width: 1920, height: 1080 },
};
const OK = { status_code: 0, status_msg: 'success' };

function checkAuth(ctx: Ctx): void {
  const key = authToken(ctx.req.headers.authorization);
  if (!key || !ctx.sim.keyAccepted(key)) {
    throw new HttpError({
      status: 401,
      message: key
        ? 'invalid api key'
        : "login fail: Please carry the API secret key in the 'Authorization' field of the request header",
    });
  }
}

function submit(ctx: Ctx): void {
  checkAuth(ctx);
  const body = objectBody(ctx);
  const model = stringField(body, 'model', { required: true, oneOf: MODELS })!;
  const firstFrame = body.first_frame_image;
  if (firstFrame !== undefined && !isImageRef(firstFrame))
    throw badRequest(
      'first_frame_image must be a URL or a data: base64 image',
      'first_frame_image',
    );
  if (body.last_frame_image !== undefined && !isImageRef(body.last_frame_image))
    throw badRequest('last_frame_image must be a URL or a data: base64 image', 'last_frame_image');
  const prompt = stringField(body, 'prompt', { max: 2000 });
  const imageOnly = model.startsWith('I2V') || model.endsWith('-Fast');
  if (imageOnly && firstFrame === undefined)
    throw badRequest(`${model} requires first_frame_image`, 'first_frame_image');
  if (!prompt && firstFrame === undefined) throw badRequest('prompt is required', 'prompt');
  const duration = intField(body, 'duration', { oneOf: [6, 10] }) ?? 6;
  const resolution =
    stringField(body, 'resolution', { oneOf: ['512P', '720P', '768P', '1080P'] }) ?? '768P';
  if (resolution === '512P' && model !== 'MiniMax-Hailuo-02')
    throw badRequest('512P is only available on MiniMax-Hailuo-02', 'resolution');
  if (duration === 10 && resolution === '1080P')
    throw badRequest('1080P supports 6 s only', 'duration');
  for (const flag of ['prompt_optimizer', 'fast_pretreatment', 'aigc_watermark'])
    boolField(body, flag);
  stringField(body, 'callback_url');
  const task = createTask(ctx, {
    id: numericId(15),
    model,
    video: { duration, ...SIZES[resolution]!, image: imageBytesOf(firstFrame) },
  });
  const fileId = numericId(15);
  task.extra.fileId = fileId;
  ctx.sim.tasks.alias(fileId, task.id);
  sendJson(ctx, 200, { task_id: task.id, base_resp: OK });
}

function statusWord(task: Task): string {
  const phase = phaseOf(task);
  if (phase === 'succeeded') return 'Success';
  if (phase === 'failed' || phase === 'cancelled') return 'Fail';
  if (phase === 'running') return 'Processing';
  return progressOf(task) < 0.1 ? 'Preparing' : 'Queueing';
}

function query(ctx: Ctx): void {
  checkAuth(ctx);
  const id = ctx.query.get('task_id');
  if (!id) throw badRequest('task_id is required', 'task_id');
  const task = ctx.sim.tasks.get('minimax', id);
  if (!task) throw new HttpError({ status: 404, message: 'task not found' });
  const status = statusWord(task);
  const body: Record<string, unknown> = { task_id: task.id, status, file_id: '', base_resp: OK };
  if (status === 'Success') {
    body.file_id = task.extra.fileId;
    body.video_width = task.video.width;
    body.video_height = task.video.height;
  }
  if (status === 'Fail') body.error_message = task.failMessage;
  sendJson(ctx, 200, body);
}

function fileTask(ctx: Ctx): Task {
  const fileId = ctx.query.get('file_id');
  if (!fileId) throw badRequest('file_id is required', 'file_id');
  const task = ctx.sim.tasks.byAlias('minimax', fileId);
  if (!task || phaseOf(task) !== 'succeeded')
    throw new HttpError({ status: 404, code: '1026', message: 'file not found' });
  return task;
}

function retrieve(ctx: Ctx): void {
  checkAuth(ctx);
  const task = fileTask(ctx);
  sendJson(ctx, 200, {
    file: {
      file_id: Number(task.extra.fileId),
      bytes: buildMp4(task.video).length,
      created_at: unixSeconds(task.createdAt + task.processingMs),
      filename: 'output.mp4',
      purpose: 'video_generation',
      download_url: mediaUrl(ctx, task),
    },
    base_resp: OK,
  });
}

/** Direct bytes (`retrieve_content`, **unconfirmed** upstream). */
function retrieveContent(ctx: Ctx): void {
  checkAuth(ctx);
  serveVideo(ctx, fileTask(ctx));
}

export const minimaxRoutes: RouteDef[] = [
  { method: 'POST', path: '/v1/video_generation', handler: submit },
  { method: 'GET', path: '/v1/query/video_generation', handler: query },
  { method: 'GET', path: '/v1/files/retrieve', handler: retrieve },
  { method: 'GET', path: '/v1/files/retrieve_content', handler: retrieveContent },
  mediaRoute('/minimax'),
];
