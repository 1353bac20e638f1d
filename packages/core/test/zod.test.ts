// `@modelgate/core/zod`: the generated schemas the gateway validates requests with.
import { describe, expect, it } from 'vitest';
import { zCreateChatCompletionRequest, zCreateVideoGenerationRequest } from '../src/zod.js';

const chat = { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }] };

describe('generated zod schemas', () => {
  it('accept a valid request body', () => {
    expect(zCreateChatCompletionRequest.safeParse(chat).success).toBe(true);
  });

  it('refuse unknown fields of strict bodies (additionalProperties: false → strictObject)', () => {
    const result = zCreateVideoGenerationRequest.safeParse({
      model: 'kling-v3',
      prompt: 'x',
      colour: 'red',
    });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.code).toBe('unrecognized_keys');
  });

  it('keep unknown fields of open text bodies (additionalProperties: true → looseObject)', () => {
    const result = zCreateChatCompletionRequest.safeParse({ ...chat, logprobs: true });
    expect(result.success).toBe(true);
    expect(result.data).toMatchObject({ logprobs: true });
    // Named fields stay strict.
    expect(
      zCreateChatCompletionRequest.safeParse({ ...chat, seed: 'x', logprobs: true }).success,
    ).toBe(false);
  });

  it('enforce the bounds from the spec', () => {
    expect(zCreateChatCompletionRequest.safeParse({ ...chat, temperature: 2.5 }).success).toBe(
      false,
    );
    expect(zCreateChatCompletionRequest.safeParse({ ...chat, temperature: 2 }).success).toBe(true);
  });
});
