/**
 * An edit's input image at a public URL, fetched the way callbacks are delivered: the callbacks'
 * SSRF guard checks every address the host resolves to (callbacks/address-guard.ts), and the
 * connection goes to a checked address (no second lookup a rebinding DNS server could answer
 * differently), with the Host header and TLS server name of the URL. No redirect is followed, the
 * body is read up to a cap, and the whole fetch has a deadline.
 */
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { CallbackUrlError, type CheckedTarget, checkCallbackUrl } from '../callbacks/index.js';
import { ApiError, badRequest } from '../errors/api-error.js';

export interface RemoteImageOptions {
  /** Largest body read, in bytes. */
  maxBytes: number;
  /** Deadline of the whole fetch. */
  timeoutMs: number;
  /** Loopback and private addresses, and plain http, allowed (development and tests). */
  allowPrivate: boolean;
}

/** Why a fetch of an input image failed: always the client's 400, naming the field. */
function refused(param: string, message: string) {
  return badRequest(`${param}: ${message}`, param, 'invalid_image_url');
}

async function checkTarget(
  url: string,
  param: string,
  options: RemoteImageOptions,
): Promise<CheckedTarget> {
  if (!url.startsWith('https://') && !(options.allowPrivate && url.startsWith('http://'))) {
    throw refused(
      param,
      'an image URL must be https, a data: URL, or a file URL of this gateway (POST /v1/files).',
    );
  }
  try {
    return await checkCallbackUrl(url, { allowPrivate: options.allowPrivate });
  } catch (error) {
    if (!(error instanceof CallbackUrlError)) throw error;
    if (error.code === 'callback_url_not_allowed') {
      throw refused(param, `its host is not a public address (${error.addressClass}).`);
    }
    if (error.code === 'callback_url_unresolvable')
      throw refused(param, 'its host cannot be resolved.');
    throw refused(param, 'it is not a valid URL.');
  }
}

function getOnce(
  target: CheckedTarget,
  address: string,
  options: RemoteImageOptions,
  signal: AbortSignal,
): Promise<{ status: number; bytes: Buffer | null }> {
  const { url, hostname } = target;
  const secure = url.protocol === 'https:';
  return new Promise((resolve, reject) => {
    const request = (secure ? https : http).request({
      host: address,
      port: url.port || (secure ? 443 : 80),
      path: `${url.pathname}${url.search}`,
      method: 'GET',
      ...(secure && isIP(hostname) === 0 ? { servername: hostname } : {}),
      headers: { host: url.host, accept: 'image/*' },
      agent: false,
      signal,
    });
    request.on('error', reject);
    request.on('response', (response) => {
      const status = response.statusCode ?? 0;
      if (status !== 200) {
        response.destroy();
        resolve({ status, bytes: null });
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      response.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > options.maxBytes) {
          response.destroy();
          resolve({ status: 413, bytes: null });
          return;
        }
        chunks.push(chunk);
      });
      response.on('end', () => resolve({ status, bytes: Buffer.concat(chunks) }));
      response.on('error', reject);
    });
    request.end();
  });
}

/**
 * @throws ApiError 400 `invalid_image_url` naming `param`: not https, not a public address, not
 *   reachable, not a 200, too large, or too slow.
 * @example
 * const bytes = await fetchRemoteImage('https://example.com/cat.png', 'images.0.image_url', { maxBytes: 20 << 20, timeoutMs: 10_000, allowPrivate: false });
 */
export async function fetchRemoteImage(
  url: string,
  param: string,
  options: RemoteImageOptions,
): Promise<Buffer> {
  const target = await checkTarget(url, param, options);
  const deadline = AbortSignal.timeout(options.timeoutMs);
  let last = 'it could not be fetched';
  for (const { address } of target.addresses) {
    try {
      const { status, bytes } = await getOnce(target, address, options, deadline);
      if (bytes) return bytes;
      if (status === 413)
        throw refused(param, `the image is larger than ${options.maxBytes} bytes.`);
      throw refused(param, `fetching it answered ${status} (redirects are not followed).`);
    } catch (error) {
      if (error instanceof ApiError) throw error;
      last = deadline.aborted
        ? `fetching it took longer than ${options.timeoutMs / 1000} s`
        : 'it could not be fetched';
      if (deadline.aborted) break;
    }
  }
  throw refused(param, `${last}.`);
}
