/**
 * What an Anthropic upstream receives. The body passes through as the client sent it: keys the
 * spec does not name (`cache_control` on blocks, fields of a turn) and thinking blocks with their
 * signatures arrive unchanged. The client's `anthropic-beta` reaches an Anthropic upstream merged with the provider's configured
 * betas (each flag once, configured first), on /v1/messages (`?beta=true` too) and on
 * /v1/messages/count_tokens; a chat request gets the configured ones only, an OpenAI upstream none.
 * The upstream is a stand-in that records what it was sent. count_tokens fails over from a dead
 * Anthropic deployment to a live one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestGateway } from '../support/index.js';
import {
  answerJson,
  type Recorder,
  recordedMessage,
  startGatewayOnStandIns,
  startRecorder,
} from '../support/stand-in.js';

const MESSAGE = recordedMessage({ input_tokens: 5, output_tokens: 2 });

/** The stand-in upstream: records what it was sent, answers a message (or a token count). */
function startMessageRecorder(): Promise<Recorder> {
  return startRecorder(({ path }, res) =>
    answerJson(res, 200, path.endsWith('/count_tokens') ? { input_tokens: 77 } : MESSAGE),
  );
}

describe('to an Anthropic upstream', () => {
  let gw: TestGateway;
  let recorder: Recorder;
  let key: string;

  beforeAll(async () => {
    recorder = await startMessageRecorder();
    const price = { input_per_million: 1, output_per_million: 1 };
    ({ gw, key } = await startGatewayOnStandIns({
      providers: {
        rec: {
          kind: 'anthropic',
          base_url: recorder.url,
          api_key: 'sk-rec',
          headers: { 'Anthropic-Beta': 'configured-1, shared' },
        },
        plain: { kind: 'anthropic', base_url: recorder.url, api_key: 'sk-rec' },
        dead: { kind: 'anthropic', base_url: 'http://127.0.0.1:1', api_key: 'sk-dead' },
        gpt: { kind: 'openai', base_url: `${recorder.url}/v1`, api_key: 'sk-rec' },
      },
      models: [
        { id: 'rec-claude', deployments: [{ provider: 'rec', model: 'up-rec' }], price },
        { id: 'plain-claude', deployments: [{ provider: 'plain', model: 'up-plain' }], price },
        {
          id: 'failover-claude',
          deployments: [
            { provider: 'dead', model: 'up-dead', weight: 1 },
            { provider: 'plain', model: 'up-live', weight: 0 },
          ],
          price,
        },
      ],
    }));
  });
  afterAll(async () => {
    await gw?.close();
    await recorder?.close();
  });

  const last = () => recorder.last();
  const messages = (model: string, beta?: string, path = '/v1/messages') =>
    gw.fetch(path, {
      method: 'POST',
      key,
      headers: beta === undefined ? {} : { 'anthropic-beta': beta },
      json: { model, max_tokens: 16, messages: [{ role: 'user', content: 'Hi' }] },
    });

  it("merges the client's flags after the configured ones, each once, in order", async () => {
    const res = await messages('rec-claude', 'shared,client-2 , interleaved-thinking-2025-05-14');
    expect(res.status, await res.text()).toBe(200);
    expect(last().path).toBe('/v1/messages');
    expect(last().headers['anthropic-beta']).toBe(
      'configured-1,shared,client-2,interleaved-thinking-2025-05-14',
    );
    expect(last().headers['x-api-key']).toBe('sk-rec');
  });

  it('sends the configured flags alone without a client header, and none when neither has any', async () => {
    expect((await messages('rec-claude')).status).toBe(200);
    expect(last().headers['anthropic-beta']).toBe('configured-1,shared');
    expect((await messages('plain-claude')).status).toBe(200);
    expect(last().headers['anthropic-beta']).toBeUndefined();
    expect((await messages('plain-claude', ' , ')).status).toBe(200);
    expect(last().headers['anthropic-beta']).toBeUndefined();
  });

  it('takes ?beta=true on /v1/messages, as the SDK beta client sends it', async () => {
    const res = await messages(
      'plain-claude',
      'context-management-2025-06-27',
      '/v1/messages?beta=true',
    );
    expect(res.status).toBe(200);
    expect(last().path).toBe('/v1/messages');
    expect(last().headers['anthropic-beta']).toBe('context-management-2025-06-27');
  });

  it("is not taken from a chat request's headers (configured ones still go)", async () => {
    const res = await gw.fetch('/v1/chat/completions', {
      method: 'POST',
      key,
      headers: { 'anthropic-beta': 'client-only' },
      json: { model: 'rec-claude', messages: [{ role: 'user', content: 'Hi' }] },
    });
    expect(res.status, await res.text()).toBe(200);
    expect(last().headers['anthropic-beta']).toBe('configured-1,shared');
  });

  it('a header value with characters outside Latin-1 is a safe request, never a 5xx', async () => {
    const res = await gw.fetch('/v1/messages', {
      method: 'POST',
      key,
      headers: { 'anthropic-beta': 'caf\u00e9' },
      json: { model: 'plain-claude', max_tokens: 16, messages: [{ role: 'user', content: 'Hi' }] },
    });
    expect(res.status).toBe(200);
  });

  it('forwards the flags on count_tokens, and its count is the upstream answer', async () => {
    const res = await messages(
      'rec-claude',
      'token-counting-2024-11-01',
      '/v1/messages/count_tokens?beta=true',
    );
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ input_tokens: 77 });
    expect(res.headers.get('x-modelgate-token-count')).toBe('upstream');
    expect(last().path).toBe('/v1/messages/count_tokens');
    expect(last().body.model).toBe('up-rec');
    expect(last().headers['anthropic-beta']).toBe('configured-1,shared,token-counting-2024-11-01');
  });

  it('passes the body through: unnamed keys, open tool_result blocks, thinking with signatures', async () => {
    const sent = {
      model: 'plain-claude',
      max_tokens: 64,
      system: [
        { type: 'text', text: 'Be brief.', cache_control: { type: 'ephemeral', ttl: '1h' } },
      ],
      messages: [
        {
          role: 'user',
          content: [{ type: 'text', text: 'Hi', cache_control: { type: 'ephemeral' } }],
        },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'Use the tool.', signature: 'EqQBCkYIAxgCIkA+/=\u00e9' },
            { type: 'redacted_thinking', data: 'EmwKAhgBEgy3va3pzix' },
            {
              type: 'tool_use',
              id: 'toolu_1',
              name: 'search',
              input: { q: 'x' },
              caller: { type: 'direct' },
            },
          ],
        },
        {
          role: 'user',
          content: [
            {
              type: 'tool_result',
              tool_use_id: 'toolu_1',
              cache_control: { type: 'ephemeral' },
              content: [{ type: 'tool_reference', tool_name: 'Read' }],
            },
          ],
          future_turn_field: { kept: true },
        },
      ],
      thinking: { type: 'enabled', budget_tokens: 1024 },
      context_management: { edits: [{ type: 'clear_tool_uses_20250919' }] },
      output_config: { effort: 'low' },
    };
    const res = await gw.fetch('/v1/messages', { method: 'POST', key, json: sent });
    expect(res.status, await res.text()).toBe(200);
    // The model is the deployment's; `stream: false` is the spec's default for an absent stream.
    expect(last().body).toEqual({ ...sent, model: 'up-plain', stream: false });
    // The signature's bytes, escapes included, are the client's.
    expect(JSON.stringify(last().body)).toContain(JSON.stringify('EqQBCkYIAxgCIkA+/=\u00e9'));
  });

  it('count_tokens fails over from a dead Anthropic deployment to a live one', async () => {
    const before = recorder.seen.length;
    const res = await gw.fetch('/v1/messages/count_tokens', {
      method: 'POST',
      key,
      json: { model: 'failover-claude', messages: [{ role: 'user', content: 'Hi' }] },
    });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await res.json()).toEqual({ input_tokens: 77 });
    expect(recorder.seen.length).toBe(before + 1);
    expect(last().body.model).toBe('up-live');
  });
});
