// Reads the webhook headers from a fetch Headers object or a plain record (Node's req.headers), ignoring case.
import { type CallbackHeaderName, CallbackVerificationError } from './errors.js';

/** Headers as fetch gives them, or as a plain record such as Node's `req.headers`. */
export type HeadersInput =
  | Headers
  | Readonly<Record<string, string | readonly string[] | undefined>>;

/** Returns the header's single value, or throws `missing_header` / `malformed_header`. */
export function readHeader(headers: HeadersInput, name: CallbackHeaderName): string {
  const raw = lookup(headers, name);
  const value = Array.isArray(raw) ? joinRepeated(raw, name) : (raw as string | undefined);
  if (value === undefined || value.trim() === '') {
    throw new CallbackVerificationError('missing_header', `the \`${name}\` header is missing`, {
      header: name,
    });
  }
  return value.trim();
}

function lookup(headers: HeadersInput, name: string): string | readonly string[] | undefined {
  if (typeof Headers !== 'undefined' && headers instanceof Headers)
    return headers.get(name) ?? undefined;
  const record = headers as Readonly<Record<string, string | readonly string[] | undefined>>;
  if (name in record) return record[name];
  for (const key of Object.keys(record)) if (key.toLowerCase() === name) return record[key];
  return undefined;
}

// Repeated signature headers are one list (fetch joins them with ", " — hence split on spaces later);
// a repeated id or timestamp is ambiguous.
function joinRepeated(values: readonly string[], name: CallbackHeaderName): string | undefined {
  if (values.length <= 1) return values[0];
  if (name === 'webhook-signature') return values.join(' ');
  throw new CallbackVerificationError('malformed_header', `the \`${name}\` header is repeated`, {
    header: name,
  });
}
