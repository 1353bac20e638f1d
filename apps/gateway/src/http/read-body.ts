/**
 * Reading a Node request's body within a limit: 413 for a declared length over it before anything
 * is read, or as soon as a chunked body crosses it.
 */
import type { IncomingMessage } from 'node:http';
import { tooLarge } from '../errors/api-error.js';
import { declaredLength } from './node-adapter.js';

/**
 * The 413 for a body over `maxBytes`.
 * @example throw tooLargeError(1_048_576);
 */
export const tooLargeError = (maxBytes: number) =>
  tooLarge(`The request body exceeds ${maxBytes} bytes.`, 'body_too_large');

/**
 * 413 for a request whose declared length is over the limit, before anything is read.
 * @example refuseDeclaredOverLimit(req, 1_048_576);
 */
export function refuseDeclaredOverLimit(incoming: IncomingMessage, maxBytes: number): void {
  const declared = declaredLength(incoming);
  if (declared !== null && declared > maxBytes) throw tooLargeError(maxBytes);
}

/**
 * The whole body of a Node request, or 413 once it crosses `maxBytes` (a declared length is
 * refused before reading). Taking a body that came with the head from the stream's buffer at once,
 * instead of reading the stream, measured 1.031×, 0.804× and 0.989× the CPU per plain chat request
 * (interleaved A/B, 40, 40 and 100 rounds): not the 5 % that would pay for a second way to read.
 * @example const body = await readBodyWithin(req, 1_048_576);
 */
export async function readBodyWithin(incoming: IncomingMessage, maxBytes: number): Promise<Buffer> {
  refuseDeclaredOverLimit(incoming, maxBytes);
  const body = await readWithin(incoming, maxBytes);
  if (body === 'too_large') throw tooLargeError(maxBytes);
  return body;
}

/** Reads a body of unknown length, giving up (and leaving the rest unread) once it crosses maxBytes. */
function readWithin(incoming: IncomingMessage, maxBytes: number): Promise<Buffer | 'too_large'> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = () => {
      incoming.off('data', onData);
      incoming.off('end', onEnd);
      incoming.off('error', onError);
      incoming.off('close', onClose);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        done();
        incoming.pause(); // the adapter drains or closes what is left once the 413 is sent
        resolve('too_large');
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      done();
      resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
    };
    const onError = (err: Error) => {
      done();
      reject(err);
    };
    const onClose = () => {
      if (incoming.readableEnded) return onEnd();
      done();
      reject(new Error('Client connection prematurely closed.'));
    };
    incoming.on('data', onData);
    incoming.on('end', onEnd);
    incoming.on('error', onError);
    incoming.on('close', onClose);
  });
}
