/**
 * One arbitrary request per spec operation: path ids (traversal, NUL, invalid UTF-8), documented
 * query parameters with boundary and hostile values plus unknown ones, header parameters, and a
 * body built from the operation's schema, then mutated (wrong types, missing and unknown fields)
 * and serialised with faults (duplicate keys, truncation, deep nesting), under the right or a
 * wrong Content-Type, with a valid key or a bad one.
 */
import fc from 'fast-check';
import {
  jsonText,
  mutate,
  nastyShortString,
  nastyString,
  valueFor,
  wrongValue,
} from './arbitraries.js';
import type { RawRequest } from './send.js';
import type { Operation, Parameter } from './spec.js';

export interface Keys {
  user: string;
  admin: string;
}

/** Percent-encodes any string, lone surrogates included (as U+FFFD, like a browser would). */
function encodeSegment(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return [...Buffer.from(text, 'utf8')]
      .map((b) => `%${b.toString(16).padStart(2, '0')}`)
      .join('');
  }
}

/** A path id as a client might send it, encoded or raw (traversal kept literally). */
const pathSegment: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom('file-abc123', 'vt_abc123', 'x') },
  { weight: 3, arbitrary: nastyShortString.map(encodeSegment) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '..',
      '.',
      '..%2f..%2fetc%2fpasswd',
      '%2e%2e%2f%2e%2e%2f',
      '..%5c..%5c',
      '....%2f%2f',
      '%00',
      'a%00.png',
      '%ED%A0%80',
      '%FF%FE',
      '%',
      '%zz',
      `${'a'.repeat(5000)}`,
    ),
  },
);

function queryFor(params: Parameter[]): fc.Arbitrary<string> {
  const documented = params.map((p) =>
    fc.option(
      fc.oneof(valueFor(p.schema, 0, p.name), nastyShortString).map((v) => [p.name, v] as const),
      { freq: 2 },
    ),
  );
  const unknown = fc.option(fc.tuple(nastyShortString, nastyShortString), { freq: 4 });
  return fc.tuple(fc.tuple(...documented), unknown).map(([pairs, extra]) => {
    const all = [...pairs.filter((p) => p !== null), ...(extra ? [extra] : [])];
    const text = all
      .map(
        ([k, v]) =>
          `${encodeSegment(k)}=${encodeSegment(typeof v === 'string' ? v : (JSON.stringify(v) ?? ''))}`,
      )
      .join('&');
    return text ? `?${text}` : '';
  });
}

/** Header values must be Latin-1 without control characters for Node to send them at all. */
const headerSafe = (value: unknown) =>
  String(typeof value === 'string' ? value : JSON.stringify(value))
    .replace(/[^\x20-\x7e]/g, '?')
    .slice(0, 2000);

function headersFor(params: Parameter[]): fc.Arbitrary<Record<string, string>> {
  const entries = params.map((p) =>
    fc.option(
      valueFor(p.schema, 0, p.name).map((v) => [p.name, headerSafe(v)] as const),
      { freq: 2 },
    ),
  );
  return fc.tuple(...entries).map((pairs) => Object.fromEntries(pairs.filter((p) => p !== null)));
}

/** A multipart body with the schema's fields, well formed (the multipart fuzz test breaks them). */
function multipartFor(op: Operation): fc.Arbitrary<{ body: Buffer; contentType: string }> {
  const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
  return fc
    .record({
      purpose: fc.oneof(fc.constant('image'), nastyString),
      file: fc.oneof(
        fc.constant(png),
        fc.uint8Array({ maxLength: 64 }).map((a) => Buffer.from(a)),
      ),
      filename: fc.oneof(
        fc.constant('a.png'),
        nastyShortString.map((s) => s.replace(/["\r\n]/g, '')),
      ),
    })
    .map(({ purpose, file, filename }) => {
      const boundary = 'fuzzboundary';
      const body = Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="purpose"\r\n\r\n${purpose}\r\n`,
        ),
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: image/png\r\n\r\n`,
        ),
        file,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      return { body, contentType: `${op.body?.mediaType}; boundary=${boundary}` };
    });
}

const WRONG_CONTENT_TYPES = [
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data',
  'application/json; charset=utf-16',
  'application/xml',
  '',
];

function bodyFor(op: Operation): fc.Arbitrary<{ body?: string | Buffer; contentType?: string }> {
  if (op.body?.mediaType.startsWith('multipart/')) return multipartFor(op);
  const json = op.body
    ? valueFor(op.body.schema).chain(mutate).chain(jsonText)
    : fc.option(wrongValue.chain(jsonText), { freq: 3 }).map((t) => t ?? undefined);
  const contentType = fc.oneof(
    { weight: 8, arbitrary: fc.constant('application/json') },
    { weight: 1, arbitrary: fc.constantFrom(...WRONG_CONTENT_TYPES) },
  );
  return fc.record({ body: json, contentType });
}

function authFor(op: Operation, keys: Keys): fc.Arbitrary<Record<string, string>> {
  const key = op.admin ? keys.admin : keys.user;
  return fc.oneof(
    { weight: 12, arbitrary: fc.constant({ authorization: `Bearer ${key}` }) },
    { weight: 2, arbitrary: fc.constant({ 'x-api-key': key }) },
    { weight: 1, arbitrary: fc.constant({ authorization: `Bearer ${keys.user}` }) },
    { weight: 1, arbitrary: fc.constant({}) },
    {
      weight: 1,
      arbitrary: nastyShortString.map((s) => ({ authorization: `Bearer ${headerSafe(s)}` })),
    },
  );
}

/**
 * @example
 * fc.assert(fc.asyncProperty(requestFor(op, keys), async (req) => expectWellFormed(req, await send(url, req))));
 */
export function requestFor(op: Operation, keys: Keys): fc.Arbitrary<RawRequest> {
  const pathParams = op.parameters.filter((p) => p.in === 'path');
  const queryParams = op.parameters.filter((p) => p.in === 'query');
  const headerParams = op.parameters.filter((p) => p.in === 'header');
  return fc
    .record({
      segments: fc.tuple(...pathParams.map(() => pathSegment)),
      query: queryFor(queryParams),
      headers: headersFor(headerParams),
      auth: authFor(op, keys),
      body: bodyFor(op),
    })
    .map(({ segments, query, headers, auth, body }) => {
      let path = op.path;
      pathParams.forEach((p, i) => {
        path = path.replace(`{${p.name}}`, segments[i]!);
      });
      const all: Record<string, string> = { ...headers, ...auth };
      if (body.contentType) all['content-type'] = body.contentType;
      return { method: op.method, path: `${path}${query}`, headers: all, body: body.body };
    });
}
