import { describe, expect, it } from 'vitest';
import type { TextDeployment, TextModel } from '../../src/models/catalog.js';
import { createTextProvider, DEFAULT_TIMEOUTS } from '../../src/providers/text/index.js';
import { planUpstream } from '../../src/text/plan.js';

const provider = (kind: 'openai' | 'anthropic') =>
  createTextProvider({
    name: kind,
    kind,
    baseUrl: 'http://127.0.0.1:9',
    apiKey: 'k',
    timeouts: DEFAULT_TIMEOUTS,
  });

function setup(kind: 'openai' | 'anthropic') {
  const deployment: TextDeployment = {
    id: `${kind}:up`,
    provider: provider(kind),
    upstreamModel: 'up',
    weight: 1,
  };
  const model: TextModel = {
    id: 'm',
    ownedBy: kind,
    price: { inputPerMillion: 1, outputPerMillion: 1 },
    maxOutputTokens: 777,
    deployments: [deployment],
  };
  return { deployment, model };
}

const chat = { model: 'm', messages: [{ role: 'user', content: 'Hi' }] };

describe('planUpstream', () => {
  it('chat → OpenAI passes through with the upstream model; streams always ask for usage', () => {
    const { deployment, model } = setup('openai');
    const plain = planUpstream(
      'chat',
      { ...chat, stream: false, stream_options: { include_usage: true } },
      deployment,
      model,
      { includeUsage: true },
    );
    expect(plain.operation).toBe('chat');
    expect(plain.passthrough).toBe(true);
    expect(plain.body).toEqual({ ...chat, model: 'up', stream: false });
    const streamed = planUpstream('chat', { ...chat, stream: true }, deployment, model, {
      includeUsage: false,
    });
    expect(streamed.body).toMatchObject({
      model: 'up',
      stream: true,
      stream_options: { include_usage: true },
    });
  });

  it('legacy → OpenAI uses /completions; legacy → Anthropic becomes one user message', () => {
    const openai = setup('openai');
    expect(
      planUpstream(
        'completion',
        { model: 'm', prompt: 'P', max_tokens: 5 },
        openai.deployment,
        openai.model,
        { includeUsage: false },
      ).operation,
    ).toBe('completions');
    const anthropic = setup('anthropic');
    const plan = planUpstream(
      'completion',
      { model: 'm', prompt: 'P', max_tokens: 5 },
      anthropic.deployment,
      anthropic.model,
      { includeUsage: false },
    );
    expect(plan.operation).toBe('messages');
    expect(plan.body).toEqual({
      model: 'up',
      max_tokens: 5,
      messages: [{ role: 'user', content: 'P' }],
    });
  });

  it('chat → Anthropic uses the model default max_tokens and translates the response back', () => {
    const { deployment, model } = setup('anthropic');
    const plan = planUpstream('chat', chat, deployment, model, { includeUsage: false });
    expect(plan.body).toMatchObject({ model: 'up', max_tokens: 777 });
    const out = plan.respond({
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      model: 'up',
      content: [{ type: 'text', text: 'Yo' }],
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: 2, output_tokens: 1 },
    });
    expect(out.usage).toEqual({ inputTokens: 2, outputTokens: 1 });
    expect(out.body).toMatchObject({
      object: 'chat.completion',
      choices: [{ message: { content: 'Yo' }, finish_reason: 'stop' }],
    });
  });

  it('messages → OpenAI becomes chat; messages → Anthropic passes through', () => {
    const message = { model: 'm', max_tokens: 9, messages: [{ role: 'user', content: 'Hi' }] };
    const openai = setup('openai');
    const toOpenAi = planUpstream('messages', message, openai.deployment, openai.model, {
      includeUsage: false,
    });
    expect(toOpenAi).toMatchObject({
      operation: 'chat',
      passthrough: false,
      body: { model: 'up', max_tokens: 9 },
    });
    const anthropic = setup('anthropic');
    expect(
      planUpstream('messages', message, anthropic.deployment, anthropic.model, {
        includeUsage: false,
      }),
    ).toMatchObject({
      operation: 'messages',
      passthrough: true,
      body: { ...message, model: 'up' },
    });
  });
});
