/**
 * Query strings (and path parameters) held to the spec like bodies are: a parameter the operation
 * does not document is a 400 naming it, so a misspelt filter (`?stauts=failed`) is an error
 * instead of an unfiltered list. The documented names and their types come from the generated
 * zod schema of the operation's query.
 */
import type { Context } from 'hono';
import { z } from 'zod';
import { ApiError, badRequest } from '../errors/api-error.js';
import { validateBody } from '../errors/validate.js';

/**
 * @example
 * refuseUnknownQuery(c, zListVideoGenerationsQuery); // ?stauts=x → 400 unknown_parameter "stauts"
 */
export function refuseUnknownQuery(c: Context, schema: z.ZodObject): void {
  const documented = Object.keys(schema.shape);
  for (const name of new URL(c.req.url).searchParams.keys()) {
    if (!documented.includes(name)) {
      throw badRequest(
        `Unknown query parameter: ${name} (this operation takes ${documented.join(', ')}).`,
        name,
        'unknown_parameter',
      );
    }
  }
}

/**
 * The operation's query, checked against its generated schema: unknown parameters refused, each
 * documented one read from its text as the schema types it (an integer from its digits, a list
 * from its comma-separated items, `style: form, explode: false`), then the first problem a 400
 * naming the parameter, exactly as a body field's would be. Defaults of the schema apply.
 *
 * @example
 * const { limit, after } = validateQuery(c, zListKeysQuery); // ?limit=500 → 400 out_of_range "limit"
 */
export function validateQuery<S extends z.ZodObject>(c: Context, schema: S): z.output<S> {
  refuseUnknownQuery(c, schema);
  const params = new URL(c.req.url).searchParams;
  try {
    return validateParams(schema, (name) => params.get(name) ?? undefined);
  } catch (err) {
    // The spec gives id-paged cursors their form (digits); outside it the spec's code is invalid_cursor.
    if (err instanceof ApiError && err.param === 'after') {
      throw badRequest('after is not a cursor from this list.', 'after', 'invalid_cursor');
    }
    throw err;
  }
}

/**
 * The operation's path parameters, read and checked the same way (`/v1/keys/abc` → 400 invalid_type
 * naming `key_id`).
 *
 * @example
 * const { key_id } = validatePath(c, zGetKeyPath);
 */
export function validatePath<S extends z.ZodObject>(c: Context, schema: S): z.output<S> {
  return validateParams(schema, (name) => c.req.param(name));
}

/** Each parameter the schema names, read by `textOf` as the schema types it, then validated. */
function validateParams<S extends z.ZodObject>(
  schema: S,
  textOf: (name: string) => string | undefined,
): z.output<S> {
  const raw: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(schema.shape)) {
    const text = textOf(name);
    if (text !== undefined) raw[name] = fromQueryText(text, field);
  }
  return validateBody(schema, raw);
}

/** A parameter's text as the value its schema expects; text that is not one stays text. */
function fromQueryText(text: string, field: z.core.$ZodType): unknown {
  const type = unwrapped(field);
  if (type instanceof z.ZodNumber) return /^-?\d{1,16}$/.test(text) ? Number(text) : text;
  if (type instanceof z.ZodArray) return text === '' ? [] : text.split(',');
  return text;
}

function unwrapped(field: z.core.$ZodType): z.core.$ZodType {
  let type = field;
  while (type instanceof z.ZodOptional || type instanceof z.ZodDefault) type = type.unwrap();
  return type;
}
