// wire: docs/providers.md#4-google-gemini-veo — Google Veo 3.1 on the Gemini API (long-running operations).
// Served at {sim}/gemini/v1beta. Key in `x-goog-api-key` (or `?key=`); the result URI needs it too.
// Cancel is unconfirmed upstream: `POST …/operations/{id}:cancel` is accepted here.
import type { Ctx, ErrorSpec, Provider } from '../context.js';
import { badRequest, HttpError, isRecord } from '../errors.js';
import { sendJson } from '../respond.js';
import type { RouteDef } from '../router.js';
import {
  createTask,
  imageBytesOf,
  intField,
  objectBody,
  serveVideo,
  sizeFor,
  stringField,
  uuid,
} from './common.js';
import { phaseOf, type Task } from './tasks.js';

const STATUS_WORDS: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  409: 'ABORTED',
  429: 'RESOURCE_EXHAUSTED',
  499: 'CANCELLED',
  500: 'INTERNAL',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
};

export const geminiProvider: Provider = {
  id: 'gemini',
  prefix: '/gemini/v1beta',
  renderError(error: ErrorSpec) {
    return {
      status: error.status,
      body: {
        error: {
          code: error.status,
          message: error.message,
          status: error.code ?? STATUS_WORDS[error.status] ?? 'UNKNOWN',
        },
      },
    };
  },
};

/** Fields the SDK refuses in Gemini-API mode: the real service would reject them too. */
const UNSUPPORTED = ['seed', 'generateAudio', 'fps', 'outputGcsUri', 'compressionQuality'];

function apiKey(ctx: Ctx): string | null {
  const header = ctx.req.headers['x-goog-api-key'];
  const value = (Array.isArray(header) ? header[0] : header) ?? ctx.query.get('key');
  return value || null;
}

export function checkAuth(ctx: Ctx): void {
  const key = apiKey(ctx);
  if (!key) {
    throw new HttpError({
      status: 403,
      message:
        "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API.",
    });
  }
  if (!ctx.sim.keyAccepted(key))
    throw new HttpError({
      status: 400,
      message: 'API key not valid. Please pass a valid API key.',
    });
}

/** Inline image `{bytesBase64Encoded, mimeType}`: URLs and gcsUri are refused on the Gemini API. */
function checkImage(value: unknown, param: string): void {
  if (value === undefined) return;
  if (
    !isRecord(value) ||
    typeof value.bytesBase64Encoded !== 'string' ||
    typeof value.mimeType !== 'string'
  ) {
    throw badRequest(
      `${param} must be an inline image {bytesBase64Encoded, mimeType}; gcsUri and URLs are not supported by the Gemini API`,
      param,
    );
  }
}

function operationName(task: Task): string {
  return `models/${task.model}/operations/${task.id}`;
}

function submit(ctx: Ctx): void {
  checkAuth(ctx);
  const model = ctx.params[0]!;
  if (model.startsWith('unknown-'))
    throw new HttpError({
      status: 404,
      message: `models/${model} is not found for API version v1beta, or is not supported for predictLongRunning.`,
    });
  const body = objectBody(ctx);
  if (
    !Array.isArray(body.instances) ||
    body.instances.length !== 1 ||
    !isRecord(body.instances[0])
  ) {
    throw badRequest('instances must hold exactly one instance', 'instances');
  }
  const instance = body.instances[0];
  checkImage(instance.image, 'instances[0].image');
  checkImage(instance.lastFrame, 'instances[0].lastFrame');
  if (instance.referenceImages !== undefined) {
    if (!Array.isArray(instance.referenceImages) || instance.referenceImages.length > 3) {
      throw badRequest(
        'referenceImages must be a list of at most 3',
        'instances[0].referenceImages',
      );
    }
    instance.referenceImages.forEach((ref, i) => {
      checkImage(isRecord(ref) ? ref.image : undefined, `instances[0].referenceImages[${i}].image`);
    });
  }
  const prompt = stringField(instance, 'prompt', {}, 'instances[0].prompt');
  if (!prompt && instance.image === undefined)
    throw badRequest('instances[0].prompt is required', 'instances[0].prompt');
  const parameters = body.parameters === undefined ? {} : body.parameters;
  if (!isRecord(parameters)) throw badRequest('parameters must be an object', 'parameters');
  for (const name of UNSUPPORTED) {
    if (parameters[name] !== undefined)
      throw badRequest(`${name} parameter is not supported in Gemini API.`, `parameters.${name}`);
  }
  const aspect =
    stringField(parameters, 'aspectRatio', { oneOf: ['16:9', '9:16'] }, 'parameters.aspectRatio') ??
    '16:9';
  const duration =
    intField(
      parameters,
      'durationSeconds',
      { oneOf: [4, 6, 8], numericString: true },
      'parameters.durationSeconds',
    ) ?? 8;
  const resolution =
    stringField(
      parameters,
      'resolution',
      { oneOf: ['720p', '1080p', '4k'] },
      'parameters.resolution',
    ) ?? '720p';
  stringField(parameters, 'negativePrompt', {}, 'parameters.negativePrompt');
  stringField(
    parameters,
    'personGeneration',
    { oneOf: ['allow_all', 'allow_adult', 'dont_allow'] },
    'parameters.personGeneration',
  );
  intField(parameters, 'sampleCount', { min: 1, max: 4 }, 'parameters.sampleCount');
  const task = createTask(ctx, {
    id: uuid().replaceAll('-', '').slice(0, 20),
    model,
    video: { duration, ...sizeFor(resolution, aspect), image: imageBytesOf(instance.image) },
  });
  sendJson(ctx, 200, { name: operationName(task) });
}

function operation(ctx: Ctx, task: Task): Record<string, unknown> {
  const name = operationName(task);
  const phase = phaseOf(task);
  if (phase === 'queued' || phase === 'running') return { name, done: false };
  if (phase === 'cancelled')
    return {
      name,
      done: true,
      error: { code: 1, message: 'Operation was cancelled.', status: 'CANCELLED' },
    };
  if (phase === 'failed')
    return { name, done: true, error: { code: 13, message: task.failMessage, status: 'INTERNAL' } };
  return {
    name,
    done: true,
    response: {
      '@type': 'type.googleapis.com/google.ai.generativelanguage.v1beta.PredictLongRunningResponse',
      generateVideoResponse: {
        generatedSamples: [
          {
            video: { uri: `${ctx.sim.baseUrl}/gemini/v1beta/files/${task.id}:download?alt=media` },
          },
        ],
      },
    },
  };
}

function findOperation(ctx: Ctx): Task {
  const [model, id] = ctx.params as [string, string];
  const task = ctx.sim.tasks.get('gemini', id);
  if (!task || task.model !== model)
    throw new HttpError({
      status: 404,
      message: `Operation models/${model}/operations/${id} not found.`,
    });
  return task;
}

function poll(ctx: Ctx): void {
  checkAuth(ctx);
  sendJson(ctx, 200, operation(ctx, findOperation(ctx)));
}

function cancel(ctx: Ctx): void {
  checkAuth(ctx);
  const task = findOperation(ctx);
  const phase = phaseOf(task);
  if (phase === 'queued' || phase === 'running') task.cancelledAt = Date.now();
  sendJson(ctx, 200, {});
}

function download(ctx: Ctx): void {
  checkAuth(ctx);
  serveVideo(ctx, ctx.sim.tasks.get('gemini', ctx.params[0]!));
}

export const geminiRoutes: RouteDef[] = [
  { method: 'POST', path: '/models/{model}:predictLongRunning', handler: submit },
  { method: 'GET', path: '/models/{model}/operations/{id}', handler: poll },
  { method: 'POST', path: '/models/{model}/operations/{id}:cancel', handler: cancel },
  { method: 'GET', path: '/files/{id}:download', handler: download },
];
