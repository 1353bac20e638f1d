/**
 * How the chaos run judges one HTTP exchange. A client of the gateway may see a documented status
 * (2xx, or 4xx/5xx carrying the documented error shape `{ error: { message, type, code, param } }`),
 * a stream that ends with `[DONE]` or with an in-stream error event, or — only when the instance it
 * was talking to was SIGKILLed under it — a broken connection. Anything else is "unexplained" and
 * fails the run.
 */
import type { Instance } from './cluster.js';

export type Outcome =
  | 'ok'
  | 'typed-error'
  | 'stream-error-event'
  | 'killed-in-flight'
  | 'unexplained';

export interface Exchange {
  op: string;
  instance: number;
  /** HTTP status, or 0 when no response arrived. */
  status: number;
  outcome: Outcome;
  /** Set for unexplained outcomes: what was wrong. */
  detail?: string;
  /** `type/code` of an error answer. */
  error?: string;
  /** `x-request-id` of the answer: a served chat must have a usage row under it. */
  requestId?: string;
  startedAt: number;
  endedAt: number;
}

/** Statuses the spec documents for the operations the run drives. */
const DOCUMENTED = new Set([200, 201, 204, 206, 304, 400, 401, 402, 403, 404, 409, 413, 429]);

function isDocumented(status: number): boolean {
  return DOCUMENTED.has(status) || (status >= 500 && status <= 504);
}

/** True when `body` is the documented error shape. */
export function isErrorShape(body: string): boolean {
  try {
    const parsed = JSON.parse(body) as { error?: Record<string, unknown> };
    const error = parsed.error;
    return (
      typeof error === 'object' &&
      error !== null &&
      typeof error.message === 'string' &&
      typeof error.type === 'string' &&
      'code' in error &&
      'param' in error
    );
  } catch {
    return false;
  }
}

/** `type/code` of an error body, for the breakdown. */
function errorCode(body: string): string {
  try {
    const { error } = JSON.parse(body) as { error: { type: string; code: string | null } };
    return `${error.type}/${error.code}`;
  } catch {
    return '(no error body)';
  }
}

/** Judges a response whose body was read completely. */
export function judgeResponse(status: number, body: string, streamed: boolean): Outcome {
  if (!isDocumented(status)) return 'unexplained';
  if (status >= 400) return isErrorShape(body) ? 'typed-error' : 'unexplained';
  if (!streamed) return 'ok';
  if (body.includes('data: [DONE]')) return 'ok';
  // An upstream that fails mid-stream ends the stream with one error event in the same shape.
  const events = body.split('\n').filter((line) => line.startsWith('data: '));
  const last = events.at(-1)?.slice(6) ?? '';
  return isErrorShape(last) ? 'stream-error-event' : 'unexplained';
}

/**
 * Runs one exchange against `instance`: `send` returns status and full body. A thrown error (the
 * connection broke) is "killed-in-flight" when the instance was killed meanwhile, else unexplained.
 */
export async function exchange(
  op: string,
  instance: Instance,
  send: () => Promise<{
    status: number;
    body: string;
    streamed?: boolean;
    outcome?: Outcome;
    headers?: Headers;
  }>,
): Promise<Exchange & { body: string }> {
  const generation = instance.generation;
  const startedAt = Date.now();
  try {
    const { status, body, streamed = false, outcome, headers } = await send();
    const judged = outcome ?? judgeResponse(status, body, streamed);
    // A stream cut by the instance's own death is that instance's in-flight request.
    const killed = judged === 'unexplained' && status === 200 && instance.generation !== generation;
    return {
      op,
      instance: instance.index,
      status,
      outcome: killed ? 'killed-in-flight' : judged,
      detail: judged === 'unexplained' && !killed ? `${status} ${body.slice(0, 300)}` : undefined,
      error: status >= 400 ? errorCode(body) : undefined,
      requestId: headers?.get('x-request-id') ?? undefined,
      startedAt,
      endedAt: Date.now(),
      body,
    };
  } catch (error) {
    const killed = instance.generation !== generation || !instance.up;
    return {
      op,
      instance: instance.index,
      status: 0,
      outcome: killed ? 'killed-in-flight' : 'unexplained',
      detail: killed ? undefined : String((error as Error).cause ?? error),
      startedAt,
      endedAt: Date.now(),
      body: '',
    };
  }
}
