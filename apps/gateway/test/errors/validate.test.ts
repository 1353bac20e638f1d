import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ApiError } from '../../src/errors/api-error.js';
import { validateBody } from '../../src/errors/validate.js';

describe('validateBody', () => {
  const schema = z
    .object({
      name: z.string().min(1),
      n: z.number().int().max(5),
      nested: z.object({ k: z.enum(['a', 'b']) }).optional(),
    })
    .strict();
  const errorOf = (body: unknown) => {
    try {
      validateBody(schema, body);
    } catch (err) {
      return err as ApiError;
    }
    throw new Error('expected a validation error');
  };

  it('names the field and classifies the problem', () => {
    expect(errorOf({ n: 1 })).toMatchObject({ status: 400, param: 'name', code: 'missing_field' });
    expect(errorOf({ name: 1, n: 1 })).toMatchObject({ param: 'name', code: 'invalid_type' });
    expect(errorOf({ name: 'a', n: 9 })).toMatchObject({ param: 'n', code: 'out_of_range' });
    expect(errorOf({ name: 'a', n: 1, extra: true })).toMatchObject({
      param: 'extra',
      code: 'unknown_field',
    });
    expect(errorOf({ name: 'a', n: 1, nested: { k: 'c' } })).toMatchObject({
      param: 'nested.k',
      code: 'invalid_value',
    });
    expect(errorOf(null)).toBeInstanceOf(ApiError);
    expect(validateBody(schema, { name: 'a', n: 2 })).toEqual({ name: 'a', n: 2 });
  });
});
