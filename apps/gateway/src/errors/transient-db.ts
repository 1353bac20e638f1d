/**
 * Whether a database error will likely go away by itself: the server is unreachable or restarting,
 * or the statement lost a deadlock or a serialization race. Such writes are retried until they
 * succeed; anything else is a fault in the statement or the data.
 */
const TRANSIENT_NODE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EHOSTUNREACH',
]);

/** SQLSTATE classes and codes: 08 connection, 57P admin shutdown/crash, 53 resources, 40 races. */
const TRANSIENT_SQLSTATE = /^(08|57P|53|40001|40P01)/;

export function isTransientDbError(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const code = 'code' in err && typeof err.code === 'string' ? err.code : '';
  if (TRANSIENT_NODE_CODES.has(code) || TRANSIENT_SQLSTATE.test(code)) return true;
  // node-postgres reports a dropped connection without a code.
  return /Connection terminated|connection error|not queryable|timeout exceeded/i.test(err.message);
}
