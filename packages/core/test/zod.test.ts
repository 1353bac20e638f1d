// `@modelgate/core/zod`: the generated schemas the gateway validates requests with.
import { describe, expect, it } from 'vitest';
import { zCreateChatCompletionRequest, zCreateVideoGenerationRequest } from '../src/zod.js';

const chat = { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }] };

describe('generated zod schemas', () => {
  it('accept a valid request body', () => {
    expect(zCreateChatCompletionRequest.safeParse(chat).success).toBe(true);
  });

  it('refuse unknown fields of strict bodies (additionalProperties: false → strictObject)', () => {
    const result = zCreateChatCompletionRequest.safeParse({ ...chat, temprature: 1 });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.code).toBe('unrecognized_keys');
    expect(
      zCreateVideoGenerationRequest.safeParse({ model: 'kling-v3', prompt: 'x', colour: 'red' })
        .success,
    ).toBe(false);
  });

  it('enforce the bounds from the spec', () => {
    expect(zCreateChatCompletionRequest.safeParse({ ...chat, temperature: 2.5 }).success).toBe(
      false,
    );
    expect(zCreateChatCompletionRequest.safeParse({ ...chat, temperature: 2 }).success).toBe(true);
  });
});
