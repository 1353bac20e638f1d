import { describe, expect, it } from 'vitest';
import { pickRequestId } from '../../../src/http/middleware/request-id.js';

describe('request ids', () => {
  it('keeps sane ids and replaces the rest', () => {
    expect(pickRequestId('abc-123_x.y:z')).toBe('abc-123_x.y:z');
    expect(pickRequestId('x'.repeat(129))).toMatch(/^req_/);
    expect(pickRequestId('<script>')).toMatch(/^req_/);
    expect(pickRequestId(undefined)).toMatch(/^req_/);
  });
});
