// Opt-in response validation. The generated zod schemas are loaded with a dynamic import the first
// time they are needed, so an app that never turns `validateResponses` on never bundles zod.
import type { ZodType } from 'zod';
import { ModelgateError } from './errors.js';

type Schemas = typeof import('./generated/zod.gen.js');

/** Names of the generated component schemas a response can be checked against (`zChatCompletion`, …). */
export type ResponseSchemaName = Extract<keyof Schemas, `z${string}`>;

let schemas: Promise<Schemas> | undefined;

function loadSchemas(): Promise<Schemas> {
  schemas ??= import('./generated/zod.gen.js').catch((error: unknown) => {
    schemas = undefined;
    throw error;
  });
  return schemas;
}

/**
 * Checks `data` against the generated schema `name`; throws a {@link ModelgateError} with code
 * `response_validation_failed` (and `param` = the first offending path) when it does not match.
 * The data itself is returned untouched: unknown extra fields are not stripped.
 */
export async function validateResponse(
  name: ResponseSchemaName,
  data: unknown,
  response: Response,
): Promise<void> {
  const schema: ZodType = (await loadSchemas())[name];
  const result = schema.safeParse(data);
  if (result.success) return;
  const issues = result.error?.issues ?? [];
  const first = issues[0];
  const path = first ? first.path.map(String).join('.') : '';
  const summary = issues
    .slice(0, 3)
    .map((issue) => `${issue.path.map(String).join('.') || '(root)'}: ${issue.message}`)
    .join('; ');
  throw new ModelgateError(
    `Response does not match ${name.slice(1)}: ${summary || 'invalid value'}`,
    {
      status: response.status,
      type: 'response_validation_error',
      code: 'response_validation_failed',
      param: path || null,
      requestId: response.headers.get('x-request-id') ?? undefined,
      headers: response.headers,
      body: data,
    },
  );
}
