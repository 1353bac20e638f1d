import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signKlingJwt } from '../../../src/video/providers/kling.js';

describe('signKlingJwt', () => {
  it('signs HS256 with the secret key and carries iss/exp/nbf', () => {
    const token = signKlingJwt('ak-1', 'sk-1', 1_700_000_000);
    const [header, claims, signature] = token.split('.');
    expect(JSON.parse(Buffer.from(header!, 'base64url').toString())).toEqual({
      alg: 'HS256',
      typ: 'JWT',
    });
    expect(JSON.parse(Buffer.from(claims!, 'base64url').toString())).toEqual({
      iss: 'ak-1',
      exp: 1_700_001_800,
      nbf: 1_699_999_995,
    });
    const expected = createHmac('sha256', 'sk-1').update(`${header}.${claims}`).digest('base64url');
    expect(signature).toBe(expected);
    expect(signKlingJwt('ak-1', 'other', 1_700_000_000).split('.')[2]).not.toBe(signature);
  });
});
