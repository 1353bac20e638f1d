/** The error bodies of providers' HTTP APIs, read the one way every adapter but the text ones reads them. */

/**
 * Pulls a human message and a code out of the many error body shapes providers use.
 *
 * @example
 * describeErrorBody({ error: { code: 'rate_limited', message: 'slow down' } }); // { code: 'rate_limited', message: 'slow down' }
 */
export function describeErrorBody(body: unknown): { code?: string; message?: string } {
  if (!body || typeof body !== 'object') return {};
  const b = body as Record<string, unknown>;
  const err = b.error;
  if (err && typeof err === 'object') {
    const e = err as Record<string, unknown>;
    return {
      code: String(e.code ?? e.status ?? e.type ?? ''),
      message: String(e.message ?? ''),
    };
  }
  if (typeof err === 'string') return { code: String(b.code ?? ''), message: err };
  if (typeof b.detail === 'string') return { message: b.detail };
  if (b.base_resp && typeof b.base_resp === 'object') {
    const r = b.base_resp as Record<string, unknown>;
    return { code: String(r.status_code ?? ''), message: String(r.status_msg ?? '') };
  }
  return {
    code: b.code !== undefined ? String(b.code) : undefined,
    message:
      typeof b.message === 'string'
        ? b.message
        : typeof b.reason === 'string'
          ? b.reason
          : undefined,
  };
}
