// HS256 JWT verification for Kling (docs/providers.md#5-kling): iss = access key, signed with the secret key,
// exp/nbf checked. node:crypto only.
import { createHmac, timingSafeEqual } from 'node:crypto';

export type JwtFailure = 'empty' | 'invalid' | 'not_yet_valid' | 'expired';

export type JwtResult =
  | { ok: true; claims: Record<string, unknown> }
  | { ok: false; reason: JwtFailure };

function decodeJson(part: string): Record<string, unknown> | null {
  try {
    const value = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    return typeof value === 'object' && value !== null ? value : null;
  } catch {
    return null;
  }
}

/** Verifies `token` against the access/secret key pair; `now` in seconds. */
export function verifyKlingJwt(
  token: string | null,
  accessKey: string,
  secretKey: string,
  now = Date.now() / 1000,
): JwtResult {
  if (!token) return { ok: false, reason: 'empty' };
  const parts = token.split('.');
  if (parts.length !== 3) return { ok: false, reason: 'invalid' };
  const [headerPart, payloadPart, signaturePart] = parts as [string, string, string];
  const header = decodeJson(headerPart);
  const claims = decodeJson(payloadPart);
  if (!header || !claims || header.alg !== 'HS256') return { ok: false, reason: 'invalid' };
  const expected = createHmac('sha256', secretKey).update(`${headerPart}.${payloadPart}`).digest();
  const given = Buffer.from(signaturePart, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    return { ok: false, reason: 'invalid' };
  if (claims.iss !== accessKey) return { ok: false, reason: 'invalid' };
  if (typeof claims.exp === 'number' && claims.exp < now) return { ok: false, reason: 'expired' };
  if (typeof claims.nbf === 'number' && claims.nbf > now + 1)
    return { ok: false, reason: 'not_yet_valid' };
  return { ok: true, claims };
}

/** Signs a Kling-style token (used by tests and by clients of the simulator). */
export function signKlingJwt(
  accessKey: string,
  secretKey: string,
  now = Math.floor(Date.now() / 1000),
): string {
  const header = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');
  const payload = Buffer.from(
    JSON.stringify({ iss: accessKey, exp: now + 1800, nbf: now - 5 }),
  ).toString('base64url');
  const signature = createHmac('sha256', secretKey)
    .update(`${header}.${payload}`)
    .digest('base64url');
  return `${header}.${payload}.${signature}`;
}
