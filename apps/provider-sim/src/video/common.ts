// Shared pieces of the video providers: task creation (with task faults), result URLs and the
// download route, output sizes, ids and small field validators.
import { randomInt, randomUUID } from 'node:crypto';
import type { Ctx } from '../context.js';
import { authToken, badRequest, HttpError, isRecord } from '../errors.js';
import { sendBytes } from '../respond.js';
import type { RouteDef } from '../router.js';
import { buildMp4 } from './mp4.js';
import { phaseOf, type Task, type VideoSpec } from './tasks.js';

/**
 * The bytes of a submit's first-frame image, when it came inline — a `data:` URL, raw base64
 * (Kling), or an object holding one (`{bytesBase64Encoded}`, `{url}`, `{image_url: {url}}`,
 * `{uri}`); undefined for a URL, which the simulator does not download (the video then starts
 * from grey).
 *
 * @example
 * imageBytesOf('data:image/png;base64,iVBOR…'); // <Buffer 89 50 4e 47 …>
 */
export function imageBytesOf(ref: unknown): Buffer | undefined {
  if (typeof ref === 'string') {
    const data = /^data:image\/[a-z0-9.+-]+;base64,(.*)$/is.exec(ref);
    if (data) return Buffer.from(data[1]!, 'base64');
    if (/^https?:\/\//i.test(ref) || ref.length < 16) return undefined;
    return Buffer.from(ref, 'base64');
  }
  if (Array.isArray(ref)) return imageBytesOf(ref[0]);
  if (!isRecord(ref)) return undefined;
  if (typeof ref.bytesBase64Encoded === 'string')
    return Buffer.from(ref.bytesBase64Encoded, 'base64');
  return imageBytesOf(ref.url ?? ref.uri ?? ref.image_url);
}

/** Creates and stores a task; `task-fail` / `result-404` faults matching this submit mark it. */
export function createTask(
  ctx: Ctx,
  init: { id: string; model: string; video: VideoSpec; extra?: Record<string, unknown> },
): Task {
  const { faults } = ctx.sim;
  let failMessage: string | null = null;
  let result404 = false;
  if (faults.size > 0) {
    const fail = faults.take(['task-fail'], ctx.path, init.model);
    if (fail?.kind === 'task-fail')
      failMessage = fail.message ?? 'Video generation failed (simulated).';
    result404 = faults.take(['result-404'], ctx.path, init.model) !== undefined;
  }
  return ctx.sim.tasks.add({
    id: init.id,
    provider: ctx.provider.id,
    model: init.model,
    createdAt: Date.now(),
    processingMs: ctx.sim.options.videoProcessingMs,
    video: init.video,
    failMessage,
    result404,
    cancelledAt: null,
    extra: init.extra ?? {},
  });
}

/**
 * The key of `Authorization: <scheme> <key>` when the sim accepts it; otherwise a 401 carrying the
 * provider's own wording.
 *
 * @example
 * requireApiKey(ctx, 'Invalid API key is provided'); // Luma
 * requireApiKey(ctx, 'Unauthorized', 'Token'); // Vidu's `Authorization: Token <key>`
 */
export function requireApiKey(ctx: Ctx, message: string, scheme = 'Bearer'): string {
  const key = authToken(ctx.req.headers.authorization, scheme);
  if (!key || !ctx.sim.keyAccepted(key)) throw new HttpError({ status: 401, message });
  return key;
}

/** The task of this provider, or the provider's 404. */
export function findTask(ctx: Ctx, id: string, message = 'Task not found'): Task {
  const task = ctx.sim.tasks.get(ctx.provider.id, id);
  if (!task) throw new HttpError({ status: 404, message });
  return task;
}

/** Where a finished task's MP4 is served (the provider's "CDN"). */
export function mediaUrl(ctx: Ctx, task: Task): string {
  return `${ctx.sim.baseUrl}${ctx.provider.prefix}/sim-media/${encodeURIComponent(task.id)}.mp4`;
}

/** Serves the MP4 of a succeeded task; 404 before that, after a `result-404` fault, or if unknown. */
export function serveVideo(ctx: Ctx, task: Task | undefined): void {
  if (!task || task.result404 || phaseOf(task) !== 'succeeded') {
    throw new HttpError({ status: 404, message: 'The requested video does not exist' });
  }
  sendBytes(ctx, 200, 'video/mp4', buildMp4(task.video));
}

/** `GET {prefix}/sim-media/{id}.mp4`: the download step of providers that hand out plain URLs. */
export function mediaRoute(prefix: string): RouteDef {
  return {
    method: 'GET',
    path: '/sim-media/{file}',
    // Named for the URL clients are handed (`{id}.mp4`), not for the `{file}` pattern.
    name: `GET ${prefix}/sim-media/{id}.mp4`,
    handler: (ctx) => {
      const file = ctx.params[0]!;
      const id = file.endsWith('.mp4') ? file.slice(0, -4) : file;
      serveVideo(ctx, ctx.sim.tasks.get(ctx.provider.id, id));
    },
  };
}

// ---------------------------------------------------------------- sizes

/** Width × height for a resolution tier (`720p`, `1080P`, `4k`) and an aspect ratio (`16:9`). */
export function sizeFor(
  resolution: string,
  aspectRatio = '16:9',
): { width: number; height: number } {
  const tier = resolution.toLowerCase();
  const short = tier === '4k' ? 2160 : Number.parseInt(tier, 10) || 720;
  const [a, b] = aspectRatio.split(':').map(Number);
  if (!a || !b) return { width: even((short * 16) / 9), height: short };
  if (a >= b) return { width: even((short * a) / b), height: short };
  return { width: short, height: even((short * b) / a) };
}

function even(n: number): number {
  const r = Math.round(n);
  return r % 2 === 0 ? r : r + 1;
}

// ---------------------------------------------------------------- ids and times

export function uuid(): string {
  return randomUUID();
}

/** A numeric id of `digits` digits (Kling, MiniMax, Vidu use long decimal ids). */
export function numericId(digits: number): string {
  let id = String(randomInt(1, 10));
  while (id.length < digits) id += String(randomInt(0, 10));
  return id;
}

export function unixSeconds(ms: number): number {
  return Math.floor(ms / 1000);
}

export function isoTime(ms: number): string {
  return new Date(ms).toISOString();
}

// ---------------------------------------------------------------- field validation

/** The body as an object, or a 400. */
export function objectBody(ctx: Ctx): Record<string, unknown> {
  if (!isRecord(ctx.body)) throw badRequest('The request body must be a JSON object.');
  return ctx.body;
}

interface StringRule {
  required?: boolean;
  max?: number;
  oneOf?: readonly string[];
}

/** An optional (or required) string field, checked against a length limit or allowed values. */
export function stringField(
  body: Record<string, unknown>,
  name: string,
  rule: StringRule = {},
  param = name,
): string | undefined {
  const value = body[name];
  if (value === undefined || value === null) {
    if (rule.required) throw badRequest(`${param} is required`, param);
    return undefined;
  }
  if (typeof value !== 'string') throw badRequest(`${param} must be a string`, param);
  if (rule.required && value.length === 0) throw badRequest(`${param} must not be empty`, param);
  if (rule.max !== undefined && value.length > rule.max) {
    throw badRequest(`${param} must be at most ${rule.max} characters`, param);
  }
  if (rule.oneOf && !rule.oneOf.includes(value)) {
    throw badRequest(
      `${param} must be one of ${rule.oneOf.join(', ')}; got ${JSON.stringify(value)}`,
      param,
    );
  }
  return value;
}

interface IntRule {
  min?: number;
  max?: number;
  oneOf?: readonly number[];
  /** Accept a numeric string too ("5"). */
  numericString?: boolean;
}

/** An optional integer field within bounds or allowed values. */
export function intField(
  body: Record<string, unknown>,
  name: string,
  rule: IntRule = {},
  param = name,
): number | undefined {
  let value = body[name];
  if (value === undefined || value === null) return undefined;
  if (rule.numericString && typeof value === 'string' && /^-?\d+$/.test(value))
    value = Number(value);
  if (typeof value !== 'number' || !Number.isInteger(value))
    throw badRequest(`${param} must be an integer`, param);
  if (rule.oneOf && !rule.oneOf.includes(value)) {
    throw badRequest(`${param} must be one of ${rule.oneOf.join(', ')}; got ${value}`, param);
  }
  if (rule.min !== undefined && value < rule.min)
    throw badRequest(`${param} must be >= ${rule.min}`, param);
  if (rule.max !== undefined && value > rule.max)
    throw badRequest(`${param} must be <= ${rule.max}`, param);
  return value;
}

export function boolField(
  body: Record<string, unknown>,
  name: string,
  param = name,
): boolean | undefined {
  const value = body[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'boolean') throw badRequest(`${param} must be a boolean`, param);
  return value;
}

export function numberField(
  body: Record<string, unknown>,
  name: string,
  min: number,
  max: number,
  param = name,
): number | undefined {
  const value = body[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || Number.isNaN(value))
    throw badRequest(`${param} must be a number`, param);
  if (value < min || value > max)
    throw badRequest(`${param} must be between ${min} and ${max}`, param);
  return value;
}

/** An image reference given as a URL or a data URI. */
export function isImageRef(value: unknown): value is string {
  return (
    typeof value === 'string' &&
    (/^https?:\/\//.test(value) || /^data:image\/[a-z0-9.+-]+;base64,/i.test(value))
  );
}
