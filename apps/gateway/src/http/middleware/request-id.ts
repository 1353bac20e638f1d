/** Honour a sane incoming x-request-id (so traces join up across services), else mint one. */
import { randomBytes } from 'node:crypto';

const SANE = /^[A-Za-z0-9._:-]{1,128}$/;

export function newRequestId(): string {
  return `req_${randomBytes(12).toString('hex')}`;
}

export function pickRequestId(incoming: string | undefined | null): string {
  return incoming && SANE.test(incoming) ? incoming : newRequestId();
}
