/**
 * Authentication for /v1/*: `Authorization: Bearer <key>`, or on /v1/messages also `x-api-key`
 * (the vendor SDKs send only that). The lookup is cached (see keys.ts).
 */
import type { MiddlewareHandler } from 'hono';
import type { KeyService } from '../../keys/keys.js';
import type { AppEnv } from '../env.js';
import { forbidden, unauthorized } from '../errors.js';

function bearer(header: string | undefined): string | null {
  if (!header) return null;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return m ? m[1]! : null;
}

export function authenticate(keys: KeyService): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    let secret = bearer(c.req.header('authorization'));
    if (!secret && c.req.path.startsWith('/v1/messages'))
      secret = c.req.header('x-api-key') ?? null;
    if (!secret) {
      throw unauthorized(
        'Missing API key: send it as "Authorization: Bearer <key>".',
        'invalid_api_key',
      );
    }
    c.set('key', await keys.authenticate(secret));
    await next();
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
