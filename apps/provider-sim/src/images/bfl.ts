// wire: docs/providers.md#15-black-forest-labs-flux — Black Forest Labs' FLUX API as FLUX
// Kontext takes it: `POST /flux-kontext-pro` (or `-max`) with the key in `x-key` answers
// `{id, polling_url}`; the polling URL answers `Pending` until the picture is made, then `Ready`
// with a signed `result.sample` URL (served without the key, as BFL's delivery hosts do). A
// prompt naming `forbidden` ends `Request Moderated`. Errors in FastAPI's shape (`detail`).
// Served at {sim}/bfl/v1.
import type { Ctx, ErrorSpec, Provider } from '../context.js';
import { badRequest, HttpError, isRecord } from '../errors.js';
import { sendBytes, sendJson } from '../respond.js';
import type { RouteDef } from '../router.js';
import { uuid } from '../video/common.js';
import { keepMade, madeBytes } from './made.js';
import { pictureFor, refusedPrompt } from './picture-for.js';
import { imageSize } from './size.js';
import { nearestRatio, RATIO_SIZES } from './sizes.js';

/** How long a task stays `Pending`. */
const PROCESSING_MS = 300;
const MODELS = ['flux-kontext-pro', 'flux-kontext-max'];
const FIELDS = [
  'prompt',
  'input_image',
  'input_image_2',
  'input_image_3',
  'input_image_4',
  'aspect_ratio',
  'seed',
  'output_format',
  'safety_tolerance',
  'prompt_upsampling',
  'webhook_url',
  'webhook_secret',
];

interface FluxTask {
  id: string;
  readyAt: number;
  moderated: boolean;
  sample: string;
  prompt: string;
}

const tasks = new Map<string, FluxTask>();

export const bflProvider: Provider = {
  id: 'bfl',
  prefix: '/bfl/v1',
  renderError(error: ErrorSpec) {
    return { status: error.status, body: { detail: error.message } };
  },
};

function checkKey(ctx: Ctx): void {
  const header = ctx.req.headers['x-key'];
  const key = Array.isArray(header) ? header[0] : header;
  if (!ctx.sim.keyAccepted(key)) {
    throw new HttpError({ status: 403, message: 'Not authenticated - Invalid Authentication' });
  }
}

function inputs(body: Record<string, unknown>): Buffer[] {
  return ['input_image', 'input_image_2', 'input_image_3', 'input_image_4'].flatMap((name) => {
    const value = body[name];
    if (value === undefined || value === null) return [];
    if (typeof value !== 'string')
      throw new HttpError({ status: 422, message: `${name}: Input should be a valid string` });
    if (/^https?:\/\//.test(value))
      throw badRequest(`${name}: the image URL could not be downloaded.`);
    return [Buffer.from(value, 'base64')];
  });
}

function submit(ctx: Ctx): void {
  checkKey(ctx);
  if (!isRecord(ctx.body))
    throw new HttpError({ status: 422, message: 'body: Input should be a valid dictionary' });
  const body = ctx.body;
  for (const name of Object.keys(body)) {
    if (!FIELDS.includes(name))
      throw new HttpError({ status: 422, message: `${name}: Extra inputs are not permitted` });
  }
  if (typeof body.prompt !== 'string')
    throw new HttpError({ status: 422, message: 'prompt: Field required' });
  const images = inputs(body);
  const shape = images[0] ? imageSize(images[0]) : null;
  const ratio = body.aspect_ratio ?? (shape ? nearestRatio(shape.width, shape.height) : '1:1');
  if (typeof ratio !== 'string' || !(ratio in RATIO_SIZES)) {
    throw new HttpError({
      status: 422,
      message: 'aspect_ratio: Aspect ratio must be between 21:9 and 9:21',
    });
  }
  const [width, height] = RATIO_SIZES[ratio]!;
  const id = uuid();
  const png = pictureFor({ prompt: body.prompt, inputs: images, width, height, index: 0 });
  tasks.set(id, {
    id,
    readyAt: Date.now() + PROCESSING_MS,
    moderated: refusedPrompt(body.prompt),
    sample: `${ctx.sim.baseUrl}${ctx.provider.prefix}/sim-media/${keepMade(png)}`,
    prompt: body.prompt,
  });
  sendJson(ctx, 200, {
    id,
    polling_url: `${ctx.sim.baseUrl}${ctx.provider.prefix}/get_result?id=${id}`,
  });
}

function getResult(ctx: Ctx): void {
  checkKey(ctx);
  const task = tasks.get(ctx.query.get('id') ?? '');
  if (!task) {
    sendJson(ctx, 200, { id: ctx.query.get('id'), status: 'Task not found', result: null });
    return;
  }
  if (Date.now() < task.readyAt) {
    sendJson(ctx, 200, { id: task.id, status: 'Pending', result: null, progress: 0.5 });
    return;
  }
  if (task.moderated) {
    sendJson(ctx, 200, { id: task.id, status: 'Request Moderated', result: null });
    return;
  }
  sendJson(ctx, 200, {
    id: task.id,
    status: 'Ready',
    result: { sample: task.sample, prompt: task.prompt, seed: 42 },
  });
}

function media(ctx: Ctx): void {
  const bytes = madeBytes(ctx.params[0] ?? '');
  if (!bytes) throw new HttpError({ status: 404, message: 'Not Found' });
  sendBytes(ctx, 200, 'image/png', bytes);
}

export const bflRoutes: RouteDef[] = [
  ...MODELS.map((model) => ({ method: 'POST', path: `/${model}`, handler: submit })),
  { method: 'GET', path: '/get_result', handler: getResult },
  {
    method: 'GET',
    path: '/sim-media/{file}',
    name: 'GET /bfl/v1/sim-media/{name}.png',
    handler: media,
  },
];
