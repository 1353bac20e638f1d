/**
 * spec/openapi.yaml as the fuzzer reads it: every operation (method, path template, its path, query
 * and header parameters, its request body's media type and schema), with local `$ref`s resolved.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

/** A JSON Schema node of the spec (OpenAPI 3.2), loosely typed: the fuzzer reads any keyword. */
export interface Schema {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  oneOf?: Schema[];
  anyOf?: Schema[];
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  items?: Schema;
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  format?: string;
}

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required?: boolean;
  schema: Schema;
}

export interface Operation {
  /** `POST /v1/chat/completions` */
  id: string;
  method: string;
  path: string;
  parameters: Parameter[];
  /** The request body's media type and schema, if the operation takes one. */
  body: { mediaType: string; schema: Schema; required: boolean } | null;
  /** Administrator key required (`POST /v1/token`). */
  admin: boolean;
}

const SPEC_PATH = fileURLToPath(new URL('../../../../spec/openapi.yaml', import.meta.url));
type Doc = {
  paths: Record<string, Record<string, unknown>>;
  components: Record<string, Record<string, unknown>>;
};
const doc = parse(readFileSync(SPEC_PATH, 'utf8')) as Doc;

/** Follows a local `$ref` (repeatedly, if the target is itself a reference). */
export function deref<T>(value: T): T {
  let current: unknown = value;
  for (
    let ref = (current as { $ref?: string })?.$ref;
    ref;
    ref = (current as { $ref?: string })?.$ref
  ) {
    const [, , kind, name] = ref.split('/');
    current = doc.components[kind!]?.[name!];
    if (!current) throw new Error(`unresolved ${ref}`);
  }
  return current as T;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

/** Every operation of the spec, in a stable order. */
export function specOperations(): Operation[] {
  const ops: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    const shared = ((item.parameters as Parameter[] | undefined) ?? []).map(deref);
    for (const method of METHODS) {
      const op = item[method] as
        | {
            parameters?: Parameter[];
            requestBody?: { required?: boolean; content: Record<string, { schema: Schema }> };
            description?: string;
          }
        | undefined;
      if (!op) continue;
      const requestBody = op.requestBody ? deref(op.requestBody) : null;
      const [mediaType, media] = Object.entries(requestBody?.content ?? {})[0] ?? [];
      ops.push({
        id: `${method.toUpperCase()} ${path}`,
        method: method.toUpperCase(),
        path,
        parameters: [...shared, ...(op.parameters ?? []).map(deref)],
        body:
          mediaType && media
            ? { mediaType, schema: media.schema, required: requestBody?.required === true }
            : null,
        admin: /administrator key/i.test(op.description ?? ''),
      });
    }
  }
  return ops.sort((a, b) => a.id.localeCompare(b.id));
}
