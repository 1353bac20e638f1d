import { describe, expect, it } from 'vitest';
import { uniformPrice } from '../../src/models/cache-prices.js';
import type { TextDeployment, TextModel } from '../../src/models/catalog.js';
import { createTextProvider, DEFAULT_TIMEOUTS } from '../../src/providers/text/index.js';
import { planUpstream } from '../../src/text/plan.js';
import { plainUsage } from '../../src/translate/usage.js';
import type { ChatRequest, MessagesRequest } from '../../src/translate/wire.js';

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
    price: uniformPrice(1, 1),
    maxOutputTokens: 777,
    deployments: [deployment],
  };
  return { deployment, model };
}

const chat: ChatRequest = { model: 'm', messages: [{ role: 'user', content: 'Hi' }] };

describe('planUpstream', () => {
  it('chat → OpenAI passes through with the upstream model; streams always ask for usage', () => {
    const { deployment, model } = setup('openai');
    const plain = planUpstream(
      { format: 'chat', body: { ...chat, stream: false, stream_options: { include_usage: true } } },
      deployment,
      model,
    );
    expect(plain.operation).toBe('chat');
    expect(plain.passthrough).toBe(true);
    expect(plain.body).toEqual({ ...chat, model: 'up', stream: false });
    const streamed = planUpstream(
      { format: 'chat', body: { ...chat, stream: true } },
      deployment,
      model,
    );
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
        { format: 'completion', body: { model: 'm', prompt: 'P', max_tokens: 5 } },
        openai.deployment,
        openai.model,
      ).operation,
    ).toBe('completions');
    const anthropic = setup('anthropic');
    const plan = planUpstream(
      { format: 'completion', body: { model: 'm', prompt: 'P', max_tokens: 5 } },
      anthropic.deployment,
      anthropic.model,
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
    const plan = planUpstream({ format: 'chat', body: chat }, deployment, model);
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
    expect(out.usage).toEqual(plainUsage(2, 1));
    expect(out.body).toMatchObject({
      object: 'chat.completion',
      choices: [{ message: { content: 'Yo' }, finish_reason: 'stop' }],
    });
  });

  it('messages → OpenAI becomes chat; messages → Anthropic passes through', () => {
    const message: MessagesRequest = {
      model: 'm',
      max_tokens: 9,
      messages: [{ role: 'user', content: 'Hi' }],
    };
    const openai = setup('openai');
    const toOpenAi = planUpstream(
      { format: 'messages', body: message },
      openai.deployment,
      openai.model,
    );
    expect(toOpenAi).toMatchObject({
      operation: 'chat',
      passthrough: false,
      body: { model: 'up', max_tokens: 9 },
    });
    const anthropic = setup('anthropic');
    expect(
      planUpstream({ format: 'messages', body: message }, anthropic.deployment, anthropic.model),
    ).toMatchObject({
      operation: 'messages',
      passthrough: true,
      body: { ...message, model: 'up' },
    });
  });
});
