// wire: docs/providers.md#17-gemini-embeddings — `models/{model}:embedContent` and
// `:batchEmbedContents` (100 requests at most, each naming the same model) for
// `gemini-embedding-001`: `content.parts[].text`, `outputDimensionality` (128–3072). As Google
// documents, only the full 3072-value vector has unit length; a shortened one is the full
// vector's first values, not scaled again. No token count is reported.
import type { Ctx } from '../context.js';
import { badRequest, HttpError, isRecord } from '../errors.js';
import { applyLatency, sendJson } from '../respond.js';
import type { RouteDef } from '../router.js';
import { checkAuth } from '../video/gemini.js';
import { embed } from './vectors.js';

const FULL = 3072;
const MAX_BATCH = 100;
const TASK_TYPES = [
  'TASK_TYPE_UNSPECIFIED',
  'RETRIEVAL_QUERY',
  'RETRIEVAL_DOCUMENT',
  'SEMANTIC_SIMILARITY',
  'CLASSIFICATION',
  'CLUSTERING',
  'QUESTION_ANSWERING',
  'FACT_VERIFICATION',
  'CODE_RETRIEVAL_QUERY',
];

function modelOf(ctx: Ctx): string {
  const model = ctx.params[0]!;
  if (!model.includes('embedding')) {
    throw new HttpError({
      status: 404,
      message: `models/${model} is not found for API version v1beta, or is not supported for embedContent.`,
    });
  }
  return model;
}

function vectorOf(request: unknown, model: string, where: string): { values: number[] } {
  if (!isRecord(request) || !isRecord(request.content) || !Array.isArray(request.content.parts)) {
    throw badRequest(`* ${where}.content: required field is not set`);
  }
  const text = request.content.parts
    .map((part) => (isRecord(part) && typeof part.text === 'string' ? part.text : ''))
    .join(' ');
  if (text.trim() === '') throw badRequest(`* ${where}.content.parts: text must not be empty`);
  if (request.taskType !== undefined && !TASK_TYPES.includes(String(request.taskType))) {
    throw badRequest(
      `Invalid value at '${where}.task_type' (TYPE_ENUM), "${String(request.taskType)}"`,
    );
  }
  const dims = request.outputDimensionality ?? FULL;
  if (!Number.isInteger(dims) || (dims as number) < 128 || (dims as number) > FULL) {
    throw badRequest(`* ${where}.output_dimensionality: must be between 128 and ${FULL}`);
  }
  return { values: Array.from(embed(model, text, FULL).slice(0, dims as number)) };
}

async function embedContent(ctx: Ctx): Promise<void> {
  checkAuth(ctx);
  const model = modelOf(ctx);
  const embedding = vectorOf(ctx.body, model, 'EmbedContentRequest');
  await applyLatency(ctx);
  sendJson(ctx, 200, { embedding });
}

async function batchEmbedContents(ctx: Ctx): Promise<void> {
  checkAuth(ctx);
  const model = modelOf(ctx);
  const requests = isRecord(ctx.body) ? ctx.body.requests : undefined;
  if (!Array.isArray(requests) || requests.length === 0) {
    throw badRequest('* BatchEmbedContentsRequest.requests: requests must not be empty');
  }
  if (requests.length > MAX_BATCH) {
    throw badRequest(
      `* BatchEmbedContentsRequest.requests: at most ${MAX_BATCH} requests can be in one batch`,
    );
  }
  const embeddings = requests.map((request, i) => {
    if (isRecord(request) && request.model !== `models/${model}`) {
      throw badRequest(
        `Model name in requests[${i}] must match the model of the batch: models/${model}.`,
      );
    }
    return vectorOf(request, model, `BatchEmbedContentsRequest.requests[${i}]`);
  });
  await applyLatency(ctx);
  sendJson(ctx, 200, { embeddings });
}

export const geminiEmbeddingRoutes: RouteDef[] = [
  { method: 'POST', path: '/models/{model}:embedContent', handler: embedContent },
  { method: 'POST', path: '/models/{model}:batchEmbedContents', handler: batchEmbedContents },
];
