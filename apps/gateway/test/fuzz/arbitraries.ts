/**
 * fast-check arbitraries generated from the spec's own schemas: values that follow a schema
 * (with its boundaries: lengths, ranges, item counts, each at and just past the edge), values
 * that break it (wrong types, missing and unknown fields), and hostile text everywhere a string
 * goes (NUL, lone surrogates, huge strings, path traversal, bidi and zero-width characters).
 */
import fc from 'fast-check';
import { deref, type Schema } from './spec.js';

/** Strings chosen to break things: storage (NUL), encoding (lone surrogates), paths, parsers. */
const NASTY_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udfff',
  '\udc00\ud800',
  '😀',
  '\u202e\u2066',
  '\ufeff',
  '\u200b',
  '../../../../etc/passwd',
  '..\\..\\windows\\win.ini',
  '%00',
  '%2e%2e%2f',
  '\r\nX-Injected: 1',
  `$${'{'}jndi:ldap://x}`,
  "'; drop table api_keys; --",
  '\\',
  '"',
  '{}',
  'null',
];

/** Any string, weighted towards hostile ones; sometimes long (`lengths` of a repeated unit). */
function hostileText(lengths: number[]): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...NASTY_STRINGS) },
    { weight: 3, arbitrary: fc.string({ maxLength: 40 }) },
    { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.constantFrom('a', '\u0000', 'é', '😀', '\ud800'), fc.constantFrom(...lengths))
        .map(([unit, n]) => unit.repeat(n)),
    },
  );
}

/** For bodies: sometimes past the 1 MiB body limit. */
export const nastyString = hostileText([300, 70_000, 1_100_000]);
/** For URLs and headers: sometimes past Node's 16 KiB header limit, never megabytes. */
export const nastyShortString = hostileText([300, 6_000]);

/** Integers at the edges that matter: 32-bit, 53-bit, 64-bit (as a double), signs. */
const EDGE_INTEGERS = [0, -1, 1, 2 ** 31 - 1, 2 ** 31, 2 ** 53 - 1, -(2 ** 53 - 1), 2 ** 63, 1e308];

/** Names the generator draws for `model` fields, so requests get past the model lookup. */
const MODEL_HINTS = [
  'gpt-4o-mini',
  'claude-haiku-4-5',
  'gpt-image-1',
  'dall-e-3',
  'kling-v3',
  'veo-3-1',
  'luma-ray-2',
];

/** A value of the wrong kind for anything: the JSON types, deep nesting, hostile text. */
export const wrongValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>(null, true, false, 0, -1, 1.5, 1e308, [], {}, [null], { '': null }),
  fc.constantFrom(...EDGE_INTEGERS),
  nastyString,
  fc.jsonValue({ maxDepth: 3 }),
  fc.nat({ max: 500 }).map((depth) => nested(depth)),
);

/** `[[[…]]]` or `{"a":{"a":…}}`, `depth` levels down (deeper nesting is written as text, see jsonText). */
function nested(depth: number): unknown {
  let value: unknown = 'bottom';
  for (let i = 0; i < depth; i++) value = i % 2 ? [value] : { a: value };
  return value;
}

const typesOf = (schema: Schema): string[] =>
  schema.type === undefined ? [] : Array.isArray(schema.type) ? schema.type : [schema.type];

/**
 * How a value is drawn: `valid` stays inside the schema (its bounds included), so that a single
 * fault added afterwards (see `mutate`) is what the gateway meets; `wild` also goes past every
 * bound and puts hostile text in every string.
 */
export type Mode = 'valid' | 'wild';

/** Unix seconds from an hour ahead to 2100: a valid `expires_at` (the spec wants the future). */
const FUTURE_SECONDS = fc.integer({ min: Math.floor(Date.now() / 1000) + 3600, max: 4102444800 });

function integerFor(schema: Schema, mode: Mode, name: string): fc.Arbitrary<number> {
  if (mode === 'valid' && name === 'expires_at') return FUTURE_SECONDS;
  const min = schema.minimum ?? schema.exclusiveMinimum ?? -1_000;
  const max = schema.maximum ?? schema.exclusiveMaximum ?? Math.max(min + 1_000, 1_000);
  const inside = fc.oneof(
    { weight: 3, arbitrary: fc.integer({ min: Math.ceil(min), max: Math.floor(max) }) },
    { weight: 1, arbitrary: fc.constantFrom(min, max) },
  );
  if (mode === 'valid') return inside;
  return fc.oneof(inside, fc.constantFrom(min - 1, max + 1, ...EDGE_INTEGERS));
}

function numberFor(schema: Schema, mode: Mode): fc.Arbitrary<number> {
  const min = schema.minimum ?? -1e6;
  const max = schema.maximum ?? 1e6;
  const inside = fc.oneof(
    { weight: 3, arbitrary: fc.double({ min, max, noNaN: true }) },
    { weight: 1, arbitrary: fc.constantFrom(min, max, -0) },
  );
  if (mode === 'valid') return inside;
  return fc.oneof(inside, fc.constantFrom(min - 1e-9, max + 1e-9, 1e308, 5e-324));
}

function stringFor(schema: Schema, name: string, mode: Mode): fc.Arbitrary<string> {
  const min = schema.minLength ?? 0;
  const max = schema.maxLength ?? 64;
  const options: fc.Arbitrary<string>[] = [
    fc.string({ minLength: min, maxLength: Math.min(max, 64) }),
    fc.constantFrom(...[min, max].map((n) => 'x'.repeat(n))),
  ];
  if (name === 'model')
    options.push(fc.constantFrom(...MODEL_HINTS), fc.constantFrom(...MODEL_HINTS));
  if (schema.format === 'uri')
    options.push(fc.constantFrom('https://example.com/hook', 'http://127.0.0.1:1/'));
  if (mode === 'wild') {
    options.push(
      nastyString,
      fc.constantFrom(...[max + 1, Math.max(0, min - 1)].map((n) => 'x'.repeat(n))),
    );
    if (schema.format === 'uri') options.push(fc.webUrl(), fc.constant('file:///etc/passwd'));
  }
  return fc.oneof(...options);
}

function objectFor(
  schema: Schema,
  depth: number,
  mode: Mode,
): fc.Arbitrary<Record<string, unknown>> {
  const properties = Object.entries(schema.properties ?? {});
  const required = new Set(schema.required ?? []);
  const fields = properties.map(([name, sub]) => {
    const value = valueFor(sub, depth + 1, name, mode);
    // Optional fields are there half the time; in wild mode a required one may be left out.
    const presence = required.has(name) ? (mode === 'valid' ? 1 : 0.92) : 0.5;
    return fc
      .tuple(fc.double({ min: 0, max: 1, noNaN: true }), value)
      .map(([p, v]) => (p < presence ? ([name, v] as const) : null));
  });
  const extra =
    typeof schema.additionalProperties === 'object'
      ? fc.dictionary(
          mode === 'valid' ? fc.string({ minLength: 1, maxLength: 16 }) : nastyString,
          valueFor(schema.additionalProperties, depth + 1, '', mode),
          { maxKeys: 4 },
        )
      : fc.constant({});
  return fc.tuple(fc.tuple(...fields), extra).map(([entries, more]) => {
    const out: Record<string, unknown> = { ...more };
    for (const entry of entries) if (entry) out[entry[0]] = entry[1];
    return out;
  });
}

/**
 * A value for `schema` (see `Mode`), often at a boundary; `name` is the field it fills.
 * Recursive schemas bottom out at a small depth.
 */
export function valueFor(
  input: Schema,
  depth = 0,
  name = '',
  mode: Mode = 'wild',
): fc.Arbitrary<unknown> {
  const schema = deref(input);
  if (depth > 6) return fc.constantFrom<unknown>(null, 'x', 1);
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) {
    const values = fc.constantFrom(...schema.enum);
    return mode === 'valid' ? values : fc.oneof(values, fc.constant('not-in-enum'));
  }
  const branches = schema.oneOf ?? schema.anyOf;
  if (branches) return fc.oneof(...branches.map((b) => valueFor(b, depth + 1, name, mode)));
  const types = typesOf(schema);
  if (types.length === 0) return fc.jsonValue({ maxDepth: 2 });
  return fc.oneof(
    ...types.map((type): fc.Arbitrary<unknown> => {
      switch (type) {
        case 'null':
          return fc.constant(null);
        case 'boolean':
          return fc.boolean();
        case 'integer':
          return integerFor(schema, mode, name);
        case 'number':
          return numberFor(schema, mode);
        case 'string':
          return stringFor(schema, name, mode);
        case 'array': {
          const minLength = schema.minItems ?? 0;
          const limit = mode === 'valid' ? (schema.maxItems ?? 4) : (schema.maxItems ?? 4) + 1;
          const maxLength = Math.max(minLength, Math.min(limit, 6));
          return fc.array(valueFor(schema.items ?? {}, depth + 1, name, mode), {
            minLength: mode === 'valid' ? minLength : 0,
            maxLength,
          });
        }
        case 'object':
          return objectFor(schema, depth, mode);
        default:
          return fc.jsonValue({ maxDepth: 2 });
      }
    }),
  );
}

/** Text that storage or encoding cannot take, for injecting into an otherwise valid body. */
const UNSTORABLE = ['a\u0000b', '\u0000', '\ud800', 'x\udfff', '\udc00\ud800'];

/** Every string in a JSON value (values and keys), as paths of keys down to it. */
function stringPaths(value: unknown, path: string[] = [], out: string[][] = []): string[][] {
  if (typeof value === 'string') out.push(path);
  else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      out.push([...path, k, '']); // the key itself ('' marks "rename this key")
      stringPaths(v, [...path, k], out);
    }
  }
  return out;
}

/** `value` with the string (or key) at `path` replaced by `text`. */
function replaceAt(value: unknown, path: string[], text: string): unknown {
  const [head, ...rest] = path;
  if (head === undefined) return text;
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    const copy = [...value];
    const index = Number(head);
    copy[index] = replaceAt(copy[index], rest, text);
    return copy;
  }
  const record = value as Record<string, unknown>;
  if (rest.length === 1 && rest[0] === '') {
    const { [head]: moved, ...others } = record;
    return { ...others, [`${head}${text}`]: moved };
  }
  return { ...record, [head]: replaceAt(record[head], rest, text) };
}

/** A valid-looking value with one string (or key) made unstorable: NUL or a lone surrogate. */
function injectUnstorable(value: unknown): fc.Arbitrary<unknown> {
  const paths = stringPaths(value);
  if (paths.length === 0) return fc.constant(value);
  return fc
    .tuple(fc.constantFrom(...paths), fc.constantFrom(...UNSTORABLE))
    .map(([path, text]) => replaceAt(value, path, text));
}

/**
 * A change to a valid-looking value: a field dropped, retyped, an unknown one added, or one of
 * its strings made unstorable.
 */
export function mutate(value: unknown): fc.Arbitrary<unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return fc.oneof(fc.constant(value), wrongValue);
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  const pickKey = keys.length > 0 ? fc.constantFrom(...keys) : fc.constant('model');
  return fc.oneof(
    { weight: 3, arbitrary: fc.constant(value) },
    {
      weight: 2,
      arbitrary: fc.tuple(pickKey, wrongValue).map(([k, v]) => ({ ...record, [k]: v })),
    },
    {
      weight: 1,
      arbitrary: pickKey.map((k) => {
        const { [k]: _dropped, ...rest } = record;
        return rest;
      }),
    },
    {
      weight: 1,
      arbitrary: fc.tuple(nastyString, wrongValue).map(([k, v]) => ({ ...record, [k]: v })),
    },
    { weight: 1, arbitrary: wrongValue },
    { weight: 6, arbitrary: injectUnstorable(value) },
  );
}

/** JSON text with faults no JSON value can carry: duplicate keys, truncation, deep nesting, a BOM. */
export function jsonText(value: unknown): fc.Arbitrary<string> {
  const json = JSON.stringify(value) ?? 'null';
  const isObject = json.startsWith('{') && json.length > 2;
  return fc.oneof(
    { weight: 12, arbitrary: fc.constant(json) },
    {
      weight: 1,
      // A duplicate key: which one wins is the parser's business, but never a 500.
      arbitrary: fc
        .tuple(
          fc.constantFrom('model', 'max_tokens', 'messages', 'name', 'quota', 'prompt'),
          wrongValue,
        )
        .map(([k, v]) =>
          isObject ? `{${JSON.stringify(k)}:${JSON.stringify(v) ?? 'null'},${json.slice(1)}` : json,
        ),
    },
    { weight: 1, arbitrary: fc.nat({ max: json.length }).map((n) => json.slice(0, n)) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(100_000, 400_000).map((n) => `${'['.repeat(n)}${']'.repeat(n)}`),
    },
    { weight: 1, arbitrary: fc.constant(`\ufeff${json}`) },
    { weight: 1, arbitrary: fc.constant(json.replace(/"(?=[^"]*"\s*[,}])/, '"\\ud800')) },
  );
}
