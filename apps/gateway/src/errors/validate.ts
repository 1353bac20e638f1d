/**
 * A value checked against one of the spec's zod schemas: the first problem becomes a 400 ApiError that
 * names the field (`param`, dotted path such as `messages.0.role`) and a machine-readable `code`.
 */
import type { z } from 'zod';
import { type ApiError, badRequest } from './api-error.js';

type Issue = z.core.$ZodIssue;

function pathOf(path: readonly PropertyKey[]): string {
  return path.map((p) => String(p)).join('.');
}

/** The value at a path of a body, undefined where the path leads nowhere. */
export function valueAt(body: unknown, path: readonly PropertyKey[]): unknown {
  let cur: unknown = body;
  for (const p of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<PropertyKey, unknown>)[p];
  }
  return cur;
}

/**
 * A union branch refused the value on one of its own fields that the value does have, with a
 * fixed-value check (`role` is not `"tool"`): the value was meant for another branch. Only a named
 * field discriminates: an array branch refusing one of its items (`content.0`) is the branch the
 * value was meant for.
 */
function refusesDiscriminator(
  branch: readonly Issue[],
  unionPath: readonly PropertyKey[],
  body: unknown,
): boolean {
  return branch.some(
    (i) =>
      i.path.length === 1 &&
      typeof i.path[0] === 'string' &&
      (i.code === 'invalid_value' || i.code === 'invalid_union') &&
      valueAt(body, [...unionPath, ...i.path]) !== undefined,
  );
}

/** What a bound means in words, by what was bounded: a number, a string's length, a list's size. */
function rangeMessage(
  issue: Extract<Issue, { code: 'too_big' | 'too_small' }>,
  field: string,
  value: unknown,
): string {
  const big = issue.code === 'too_big';
  const limit = Number(big ? issue.maximum : issue.minimum);
  const bound =
    issue.inclusive === false ? (big ? 'less than' : 'more than') : big ? 'at most' : 'at least';
  switch (issue.origin) {
    case 'string':
      return `${field} must be ${bound} ${limit} characters long (got ${String(value).length}).`;
    case 'array':
      return `${field} must have ${bound} ${limit} items (got ${Array.isArray(value) ? value.length : 0}).`;
    case 'number':
    case 'int':
    case 'bigint':
      return `${field} must be ${bound} ${limit} (got ${String(value)}).`;
    default:
      return `${field}: ${issue.message}`;
  }
}

/** Translate one zod issue to an ApiError 400. */
export function issueToApiError(issue: Issue, body: unknown): ApiError {
  const path = issue.path ?? [];
  const param = pathOf(path) || null;
  switch (issue.code) {
    case 'unrecognized_keys': {
      const key = issue.keys[0] ?? '';
      const full = param ? `${param}.${key}` : key;
      return badRequest(`Unknown field: ${full}.`, full, 'unknown_field');
    }
    case 'invalid_type': {
      if (valueAt(body, path) === undefined) {
        return badRequest(`Missing required field: ${param}.`, param, 'missing_field');
      }
      return badRequest(
        `Invalid type for ${param ?? 'body'}: expected ${issue.expected}.`,
        param,
        'invalid_type',
      );
    }
    case 'too_big':
    case 'too_small':
      return badRequest(
        rangeMessage(issue, param ?? 'value', valueAt(body, path)),
        param,
        'out_of_range',
      );
    case 'invalid_value':
      return badRequest(
        `${param ?? 'value'} must be one of: ${issue.values.map((v) => JSON.stringify(v)).join(', ')}.`,
        param,
        'invalid_value',
      );
    case 'invalid_union': {
      // A required field left out, or sent as null ("not set"), whatever its possible types.
      if (valueAt(body, path) == null) {
        return badRequest(`Missing required field: ${param}.`, param, 'missing_field');
      }
      // "Invalid input" says nothing: report the branch that got furthest — one the value is
      // meant for (not refused on a discriminating field such as a message's `role`), whose
      // problem is not the value's type (e.g. `stop` is a list, but too long).
      const meantFor = issue.errors.filter((branch) => !refusesDiscriminator(branch, path, body));
      const closest = (meantFor.length > 0 ? meantFor : issue.errors)
        .map((branch) => branch[0])
        .find((first) => first && !(first.code === 'invalid_type' && first.path.length === 0));
      if (closest) return issueToApiError({ ...closest, path: [...path, ...closest.path] }, body);
      return badRequest(`Invalid value for ${param ?? 'body'}.`, param, 'invalid_value');
    }
    default:
      return badRequest(`${param ?? 'body'}: ${issue.message}`, param, 'invalid_value');
  }
}

/**
 * Validate a parsed body against a zod schema.
 *
 * @example
 * const req = validateBody(zCreateTokenRequest, await readJsonBody(c));
 */
export function validateBody<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  if (!issue) throw badRequest('Invalid request body.');
  throw issueToApiError(issue, body);
}
