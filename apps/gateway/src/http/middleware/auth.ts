/**
 * Authentication for /v1/*: `Authorization: Bearer <key>`, or on /v1/messages also `x-api-key`
 * (the vendor SDKs send only that). The lookup is cached (see keys.ts).
 */
import type { Context, MiddlewareHandler } from 'hono';
import type { Actor } from '../../audit/index.js';
import { forbidden, unauthorized } from '../../errors/api-error.js';
import type { KeyService } from '../../keys/keys.js';
import type { AppEnv } from '../env.js';
import type { Stage } from '../exchange.js';

function bearer(header: string | undefined): string | null {
  if (!header) return null;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return m ? m[1]! : null;
}

/**
 * The API key a request presents; 401 when it presents none.
 * @example const secret = presentedKey(path, (name) => headers[name]);
 */
export function presentedKey(path: string, header: (name: string) => string | undefined): string {
  let secret = bearer(header('authorization'));
  if (!secret && path.startsWith('/v1/messages')) secret = header('x-api-key') ?? null;
  if (!secret) {
    throw unauthorized(
      'Missing API key: send it as "Authorization: Bearer <key>".',
      'invalid_api_key',
    );
  }
  return secret;
}

/**
 * The key the request presents, checked (401 unknown, expired or revoked).
 * @example const stages = [authStage(services.keys), rateLimitStage(services.limiter)];
 */
export function authStage(keys: KeyService): Stage {
  return {
    name: 'auth',
    scope: 'api',
    async enter(x) {
      x.key = await keys.authenticate(presentedKey(x.path, x.header));
      return undefined;
    },
  };
}

/**
 * Admin-only routes: a user key gets 403 permission_error.
 * @example app.post('/v1/token', requireAdmin(), handler)
 */
export function requireAdmin(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (c.get('key')?.role !== 'admin') {
      throw forbidden('This operation needs an admin key.', 'admin_key_required');
    }
    await next();
  };
}

/**
 * Who makes a change, for the audit log: the request's key and its request id.
 * @example await recordAudit(trx, actorOf(c), change);
 */
export function actorOf(c: Context<AppEnv>): Actor {
  return { keyId: c.get('key').id, requestId: c.get('requestId') ?? null };
}

/**
 * Whose list a request reads: the key it names when that is an administrator key (or the key
 * itself), else the presented key's own; a normal key naming another key is a 403.
 *
 * @example
 * const owner = listedKeyId(c.get('key'), query.key_id, 'video tasks');
 */
export function listedKeyId(
  key: { id: number; role: 'admin' | 'user' },
  requested: number | undefined,
  what: string,
): number {
  if (requested === undefined || requested === key.id) return key.id;
  if (key.role !== 'admin') {
    throw forbidden(`Another key's ${what} need an admin key.`, 'admin_key_required');
  }
  return requested;
}
