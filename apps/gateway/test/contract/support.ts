/**
 * Contract checks shared by the test/contract suites: every response is held to spec/openapi.yaml
 * (the status must be DECLARED for the operation) and to docs/design.md#errors (error `type` per status, body
 * shape, x-request-id, Retry-After, x-ratelimit-*, x-modelgate-overhead-ms).
 *
 * @example
 * const res = await gw.fetch('/v1/models', { key });
 * await expectOk(res, 'GET /v1/models', zModelList, { limited: true });
 */
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { fileURLToPath } from 'node:url';
import { zErrorResponse, zMessagesErrorResponse } from '@modelgate/core/zod';
import { expect } from 'vitest';
import { parse } from 'yaml';
import type { z } from 'zod';

/** Loosely typed JSON from the API, for assertions. */
// biome-ignore lint/suspicious/noExplicitAny: test assertions walk arbitrary response bodies.
export type Json = Record<string, any>;

/** `METHOD /path/{template}` exactly as in the spec. */
export type Operation = string;

interface SpecOperation {
  responses?: Record<string, unknown>;
}

const SPEC_PATH = fileURLToPath(new URL('../../../../spec/openapi.yaml', import.meta.url));
interface SpecHeader {
  required?: boolean;
  schema?: { type?: string; minimum?: number };
}
type Ref = { $ref: string };

const spec = parse(readFileSync(SPEC_PATH, 'utf8')) as {
  paths: Record<string, Record<string, SpecOperation>>;
  components: Record<string, Record<string, unknown>>;
};

/** Follows a local `$ref` (`#/components/<kind>/<name>`) once. */
function deref<T>(value: T | Ref): T {
  const ref = (value as Ref | undefined)?.$ref;
  if (!ref) return value as T;
  const [, , kind, name] = ref.split('/');
  const target = spec.components[kind!]?.[name!];
  if (!target) throw new Error(`unresolved ${ref}`);
  return target as T;
}

/** The headers the spec documents for one response of an operation, by lower-case name. */
export function declaredHeaders(op: Operation, status: number): Map<string, SpecHeader> {
  const [method, path] = op.split(' ') as [string, string];
  const response = deref<{ headers?: Record<string, SpecHeader | Ref> }>(
    spec.paths[path]![method.toLowerCase()]!.responses![String(status)] as Ref,
  );
  return new Map(
    Object.entries(response.headers ?? {}).map(([name, h]) => [name.toLowerCase(), deref(h)]),
  );
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

/** Every operation in the spec (webhooks excluded: the gateway sends those, it does not serve them). */
export function specOperations(): Operation[] {
  const ops: Operation[] = [];
  for (const [path, item] of Object.entries(spec.paths)) {
    for (const method of METHODS) if (item[method]) ops.push(`${method.toUpperCase()} ${path}`);
  }
  return ops.sort();
}

/** The statuses the spec declares for an operation (throws on an operation it does not have). */
export function declaredStatuses(op: Operation): Set<number> {
  const [method, path] = op.split(' ') as [string, string];
  const operation = spec.paths[path]?.[method.toLowerCase()];
  if (!operation?.responses) throw new Error(`${op} is not in spec/openapi.yaml`);
  return new Set(Object.keys(operation.responses).map(Number));
}

/** docs/design.md#errors: the one `type` each status carries. */
export const TYPE_BY_STATUS: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  402: 'insufficient_quota',
  403: 'permission_error',
  404: 'not_found_error',
  409: 'conflict',
  413: 'request_too_large',
  415: 'unsupported_media_type',
  429: 'rate_limit_error',
  500: 'api_error',
  502: 'upstream_error',
  503: 'overloaded_error',
  504: 'upstream_timeout',
};

/** The operations under /v1/messages answer errors in the vendor's shape. */
const isMessagesOp = (op: Operation) =>
  op === 'POST /v1/messages' || op === 'POST /v1/messages/count_tokens';

export interface HeaderExpectations {
  /** The key has rpm/tpm limits: x-ratelimit-*-requests must be present. */
  limited?: boolean;
}

/** Headers every response of the gateway carries, and the ones limited keys get. */
export function expectCommonHeaders(res: Response, op: Operation, opts: HeaderExpectations = {}) {
  const where = `${op} → ${res.status}`;
  // What the spec documents for this response: required headers present, every value well-typed;
  // x-ratelimit-* present when documented here and the key has limits.
  for (const [name, header] of declaredHeaders(op, res.status)) {
    const value = res.headers.get(name);
    const mustBe = header.required || (opts.limited && name.startsWith('x-ratelimit-'));
    if (mustBe) expect(value, `${where}: ${name} (documented)`).not.toBeNull();
    if (value === null) continue;
    const { type, minimum } = header.schema ?? {};
    if (type === 'integer') expect(value, `${where}: ${name}`).toMatch(/^\d+$/);
    if (type === 'number')
      expect(Number.isFinite(Number(value)), `${where}: ${name}=${value}`).toBe(true);
    if (minimum !== undefined)
      expect(Number(value), `${where}: ${name}`).toBeGreaterThanOrEqual(minimum);
    if (name.startsWith('x-ratelimit-reset-')) {
      expect(value, `${where}: ${name}`).toMatch(/^(\d+h)?(\d+m)?(\d+(\.\d+)?s)?(\d+ms)?$/);
    }
  }
  expect(res.headers.get('x-request-id'), `${where}: x-request-id`).toMatch(/^[A-Za-z0-9._:-]+$/);
  expect(
    Number(res.headers.get('x-modelgate-overhead-ms')),
    `${where}: overhead`,
  ).toBeGreaterThanOrEqual(0);
  if (opts.limited) {
    expect(res.headers.get('x-ratelimit-limit-requests'), `${where}: limit`).toMatch(/^\d+$/);
    expect(res.headers.get('x-ratelimit-remaining-requests'), `${where}: remaining`).toMatch(
      /^\d+$/,
    );
    expect(res.headers.get('x-ratelimit-reset-requests'), `${where}: reset`).toBeTruthy();
  }
}

function expectDeclared(op: Operation, status: number) {
  expect(
    [...declaredStatuses(op)],
    `${op} answered ${status}, which spec/openapi.yaml does not declare`,
  ).toContain(status);
}

/**
 * A 200 whose JSON body parses with the operation's generated zod response schema.
 * Returns the parsed body.
 */
export async function expectOk<S extends z.ZodType>(
  res: Response,
  op: Operation,
  schema: S,
  opts: HeaderExpectations = {},
): Promise<z.output<S>> {
  const text = await res.text();
  expect(res.status, `${op}: ${text.slice(0, 300)}`).toBe(200);
  expectDeclared(op, 200);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  expectCommonHeaders(res, op, opts);
  const parsed = schema.safeParse(JSON.parse(text));
  if (!parsed.success) {
    throw new Error(`${op} body does not match its schema: ${parsed.error.message}\n${text}`);
  }
  return parsed.data;
}

export interface ErrorExpectation extends HeaderExpectations {
  status: number;
  /** Expected `param` (`null` when no field is at fault); on /v1/messages the message names it. */
  param?: string | null;
  code?: string;
}

/**
 * An error response held to the contract: declared status, the type docs/design.md#errors gives the status, the body
 * shape of the path (vendor shape on /v1/messages), and the headers. Returns the `error` object.
 */
export async function expectError(
  res: Response,
  op: Operation,
  want: ErrorExpectation,
): Promise<Json> {
  const text = await res.text();
  expect(res.status, `${op}: ${text.slice(0, 300)}`).toBe(want.status);
  expectDeclared(op, want.status);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  expectCommonHeaders(res, op, want);
  if (want.status === 429) {
    expect(res.headers.get('retry-after'), `${op}: Retry-After`).toMatch(/^\d+$/);
  }
  const body = JSON.parse(text) as Json;
  const type = TYPE_BY_STATUS[want.status];
  if (isMessagesOp(op)) {
    zMessagesErrorResponse.parse(body);
    expect(Object.keys(body).sort()).toEqual(['error', 'type']);
    expect(Object.keys(body.error).sort()).toEqual(['message', 'type']);
    expect(body.error.type, text).toBe(type);
    if (want.param) expect(body.error.message, text).toContain(want.param);
    return body.error;
  }
  zErrorResponse.parse(body);
  expect(Object.keys(body)).toEqual(['error']);
  // A spent budget says which one in `budget` (ExceededBudget); no other error has more fields.
  const fields = ['code', 'message', 'param', 'type'];
  if (body.error.code === 'budget_exceeded') fields.unshift('budget');
  expect(Object.keys(body.error).sort()).toEqual(fields);
  expect(body.error.type, text).toBe(type);
  expect(body.error.message.length).toBeGreaterThan(0);
  if (want.param !== undefined) expect(body.error.param, text).toBe(want.param);
  if (want.code !== undefined) expect(body.error.code, text).toBe(want.code);
  return body.error;
}

/** The `data:` payloads of an SSE body (with their `event:` names), `[DONE]` included as a string. */
export function sseEvents(text: string): { event: string | null; data: string }[] {
  const events: { event: string | null; data: string }[] = [];
  for (const block of text.split(/\r?\n\r?\n/)) {
    let event: string | null = null;
    const data: string[] = [];
    for (const line of block.split(/\r?\n/)) {
      if (line.startsWith('event:')) event = line.slice(6).trim();
      else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
    }
    if (data.length > 0) events.push({ event, data: data.join('\n') });
  }
  return events;
}

/**
 * A 200 event stream: every event validated with `schema`; returns the parsed events. With `done`,
 * the stream must end with `data: [DONE]` (OpenAI formats); otherwise `event:` must equal `type`.
 */
export async function expectStream<S extends z.ZodType>(
  res: Response,
  op: Operation,
  schema: S,
  opts: HeaderExpectations & { done: boolean },
): Promise<z.output<S>[]> {
  const text = await res.text();
  expect(res.status, `${op}: ${text.slice(0, 300)}`).toBe(200);
  expectDeclared(op, 200);
  expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
  expectCommonHeaders(res, op, opts);
  const events = sseEvents(text);
  expect(events.length).toBeGreaterThan(1);
  if (opts.done) expect(events.at(-1)?.data).toBe('[DONE]');
  const payloads = opts.done ? events.slice(0, -1) : events;
  return payloads.map(({ event, data }) => {
    const json = JSON.parse(data) as Json;
    if (!opts.done) expect(event, data).toBe(json.type);
    const parsed = schema.safeParse(json);
    if (!parsed.success)
      throw new Error(`${op} stream event off-schema: ${parsed.error.message}\n${data}`);
    return parsed.data;
  });
}

/** A 1 MiB + 1 KiB JSON body (valid JSON, so only its size is wrong). */
export function oversizedJson(extra: Json): string {
  return JSON.stringify({ ...extra, padding: 'x'.repeat(1024 * 1024 + 1024) });
}

/**
 * POST a body on a connection of its own (no keep-alive pool): the gateway answers an oversized
 * body early and closes the socket, which must not break the next request of a shared pool.
 */
export function postAlone(
  url: string,
  body: string | Uint8Array,
  headers: Record<string, string>,
): Promise<Response> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', agent: false, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const out = new Headers();
        for (const [k, v] of Object.entries(res.headers)) {
          if (v !== undefined) out.set(k, Array.isArray(v) ? v.join(', ') : v);
        }
        resolve(new Response(Buffer.concat(chunks), { status: res.statusCode ?? 0, headers: out }));
      });
    });
    // The server may stop reading once it has answered: a write error after that is expected.
    req.on('error', (err) => setTimeout(() => reject(err), 500));
    req.end(body);
  });
}
