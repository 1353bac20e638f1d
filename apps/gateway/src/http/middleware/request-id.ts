/** Honour a sane incoming x-request-id (so traces join up across services), else mint one. */
import { randomBytes } from 'node:crypto';
import type { Stage } from '../exchange.js';

const SANE = /^[A-Za-z0-9._:-]{1,128}$/;

// Random bytes drawn 4 KiB at a time: one syscall per ~340 ids instead of one per request.
const POOL_BYTES = 12 * 341;
let pool = Buffer.alloc(0);
let offset = POOL_BYTES;

export function newRequestId(): string {
  if (offset + 12 > pool.length) {
    pool = randomBytes(POOL_BYTES);
    offset = 0;
  }
  const id = pool.toString('hex', offset, offset + 12);
  offset += 12;
  return `req_${id}`;
}

export function pickRequestId(incoming: string | undefined | null): string {
  return incoming && SANE.test(incoming) ? incoming : newRequestId();
}

/**
 * The request's id (x-request-id on every answer, and in every log line about it).
 * @example const stages = [requestIdStage(), …];
 */
export function requestIdStage(): Stage {
  return {
    name: 'request-id',
    scope: 'every',
    enter(x) {
      x.requestId = pickRequestId(x.header('x-request-id'));
      x.headers['x-request-id'] = x.requestId;
      return undefined;
    },
  };
}
