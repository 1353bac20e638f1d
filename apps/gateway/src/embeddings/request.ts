/**
 * Stage 2: the validated body checked against the model's own table (models.ts): how many inputs,
 * token ids where the model takes them, `dimensions` where it takes it. The spec's schema has
 * already checked the shapes; a value this model does not take is a 400 `unsupported_value`
 * naming the field.
 */
import type { CreateEmbeddingRequest } from '@modelgate/core';
import { badRequest } from '../errors/api-error.js';
import { estimateTokens } from '../text/tokens.js';
import type { EmbeddingModel } from './catalog.js';

/** A request the model takes. */
export interface EmbeddingRequest {
  model: EmbeddingModel;
  /** One entry per input: a text, or token ids. */
  inputs: (string | number[])[];
  dimensions?: number;
  encoding: 'float' | 'base64';
  user?: string;
  /** The inputs' tokens as estimated for the reservation: exact for ids, 4 characters each for text. */
  estimatedTokens: number;
}

function refuse(param: string, message: string): never {
  throw badRequest(message, param, 'unsupported_value');
}

/** `input` as a list of inputs: a string, strings, one list of token ids, or lists of them. */
function inputsOf(input: CreateEmbeddingRequest['input']): (string | number[])[] {
  if (typeof input === 'string') return [input];
  if (input.every((item) => typeof item === 'number')) return [input as number[]];
  return input as (string | number[])[];
}

/**
 * @throws ApiError 400 `unsupported_value` naming the field the model does not take as sent.
 * @example
 * normalizeEmbeddingRequest({ model: 'text-embedding-ada-002', input: 'hi', dimensions: 256 }, model);
 * // throws: text-embedding-ada-002 does not take dimensions.
 */
export function normalizeEmbeddingRequest(
  body: CreateEmbeddingRequest,
  model: EmbeddingModel,
): EmbeddingRequest {
  const { spec } = model;
  const inputs = inputsOf(body.input);
  if (inputs.length > spec.maxInputs) {
    refuse(
      'input',
      `${spec.id} takes at most ${spec.maxInputs} inputs per request (got ${inputs.length}).`,
    );
  }
  let estimatedTokens = 0;
  for (const [i, input] of inputs.entries()) {
    if (typeof input === 'string') {
      estimatedTokens += estimateTokens(input);
      continue;
    }
    if (!spec.tokenInput) refuse('input', `${spec.id} takes text, not token ids.`);
    if (input.length > spec.maxInputTokens) {
      refuse(
        inputs.length === 1 ? 'input' : `input.${i}`,
        `${spec.id} takes at most ${spec.maxInputTokens} tokens per input (got ${input.length}).`,
      );
    }
    estimatedTokens += input.length;
  }
  const request: EmbeddingRequest = {
    model,
    inputs,
    encoding: body.encoding_format ?? 'float',
    estimatedTokens,
  };
  if (body.dimensions !== undefined) {
    const range = spec.dimensionsRange;
    if (!range) refuse('dimensions', `${spec.id} does not take dimensions.`);
    if (body.dimensions < range.min || body.dimensions > range.max) {
      refuse(
        'dimensions',
        `${spec.id} takes dimensions from ${range.min} to ${range.max} (got ${body.dimensions}).`,
      );
    }
    request.dimensions = body.dimensions;
  }
  if (body.user !== undefined) request.user = body.user;
  return request;
}
