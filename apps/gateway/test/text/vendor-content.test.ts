/**
 * Content the client's vendor owns — block kinds the spec does not list (`document`,
 * `search_result`, `server_tool_use`, …) in a turn or inside a tool result, `cache_control` on
 * any block, Responses input items of other kinds — reaches an upstream of the client's format
 * byte for byte, and is turned into text or dropped and listed (`x-modelgate-dropped-params`) for
 * one of the other format; never a 500. Blocks of the listed kinds stay strictly checked, and a
 * role outside `user`, `assistant` and `system` is a 400 naming them; `system` turns stay in
 * place, or are folded into `system` for an upstream that refuses them. The upstream is a
 * stand-in that records the raw bytes it was sent (`up-strict` refuses system turns).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/index.js';
import {
  answerJson,
  type Recorder,
  recordedMessage,
  startGatewayOnStandIns,
  startRecorder,
  usageRecordOf,
} from '../support/stand-in.js';

// As Anthropic answers a request whose prefix was cached at a breakpoint.
const MESSAGE = recordedMessage({
  input_tokens: 5,
  cache_read_input_tokens: 1000,
  output_tokens: 2,
});

const CHAT_COMPLETION = {
  id: 'chatcmpl_rec',
  object: 'chat.completion',
  created: 1,
  model: 'rec',
  choices: [
    {
      index: 0,
      message: { role: 'assistant', content: 'Recorded.' },
      finish_reason: 'stop',
    },
  ],
  usage: { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 },
};

const RESPONSE = {
  id: 'resp_up',
  object: 'response',
  created_at: 1,
  status: 'completed',
  model: 'rec',
  output: [
    {
      type: 'message',
      id: 'msg_1',
      status: 'completed',
      role: 'assistant',
      content: [{ type: 'output_text', text: 'Recorded.', annotations: [] }],
    },
  ],
  usage: {
    input_tokens: 5,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: 2,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: 7,
  },
};

function answerFor(path: string): unknown {
  if (path.endsWith('/count_tokens')) return { input_tokens: 77 };
  if (path.endsWith('/chat/completions')) return CHAT_COMPLETION;
  if (path.endsWith('/responses')) return RESPONSE;
  return MESSAGE;
}

/** Anthropic's answer to a `system` turn on a model that does not take them. */
const SYSTEM_REFUSAL = {
  type: 'error',
  error: {
    type: 'invalid_request_error',
    message:
      'messages: Unexpected role "system". The Messages API accepts a top-level `system` parameter, not "system" as an input message role.',
  },
};

/** The `up-strict` upstream model refuses system turns; the others take them. */
function refusesSystemTurn(body: { model?: unknown; messages?: Array<{ role?: unknown }> }) {
  return body.model === 'up-strict' && (body.messages ?? []).some((m) => m.role === 'system');
}

/** The stand-in upstream: records what it was sent, refuses `up-strict`'s system turns. */
function startVendorRecorder(): Promise<Recorder> {
  return startRecorder(({ path, body }, res) => {
    if (refusesSystemTurn(body)) answerJson(res, 400, SYSTEM_REFUSAL);
    else answerJson(res, 200, answerFor(path));
  });
}

const CACHE = { type: 'ephemeral' };

/** One block of each newer kind, where the vendor puts it, with cache breakpoints on several. */
const DOCUMENT = {
  type: 'document',
  source: { type: 'text', media_type: 'text/plain', data: 'The report says 42.' },
  title: 'Report',
  citations: { enabled: true },
  cache_control: CACHE,
};
// `type` last: the keys still reach the upstream in this order.
const PDF = {
  source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0xLjQ=' },
  type: 'document',
};
const SEARCH_RESULT = {
  type: 'search_result',
  source: 'https://example.com/weather',
  title: 'Weather',
  content: [{ type: 'text', text: 'Sunny in Paris.' }],
  citations: { enabled: true },
};
const CONTAINER_UPLOAD = { type: 'container_upload', file_id: 'file_011CNha8iCJcU1wXNR6q4V8w' };
const SERVER_TOOL_USE = {
  type: 'server_tool_use',
  id: 'srvtoolu_1',
  name: 'web_search',
  input: { query: 'weather Paris' },
};
const WEB_SEARCH_RESULT = {
  type: 'web_search_tool_result',
  tool_use_id: 'srvtoolu_1',
  content: [
    {
      type: 'web_search_result',
      url: 'https://example.com',
      title: 'Example',
      encrypted_content: 'EqgfCioIARgBIiQ3',
    },
  ],
};

/** An image in Anthropic's Files API: the simulator has no files, so only the stand-in gets it. */
const FILE_IMAGE = {
  type: 'image',
  source: { type: 'file', file_id: 'file_011CNha8iCJcU1wXNR6q4V8w' },
  cache_control: CACHE,
};

const conversation = (model: string, extra: readonly unknown[] = []) => ({
  model,
  max_tokens: 64,
  tools: [
    {
      name: 'ToolSearch',
      description: 'Finds tools.',
      input_schema: { type: 'object', properties: { query: { type: 'string' } } },
    },
  ],
  messages: [
    {
      role: 'user',
      content: [
        { type: 'text', text: 'Read these.', citations: null },
        DOCUMENT,
        PDF,
        SEARCH_RESULT,
        CONTAINER_UPLOAD,
        ...extra,
        {
          type: 'image',
          source: { type: 'url', url: 'https://example.com/cat.png' },
          cache_control: CACHE,
        },
      ],
    },
    {
      role: 'assistant',
      content: [
        { type: 'text', text: 'Searching.' },
        SERVER_TOOL_USE,
        WEB_SEARCH_RESULT,
        {
          type: 'tool_use',
          id: 'toolu_1',
          name: 'ToolSearch',
          input: { query: 'weather' },
          cache_control: CACHE,
        },
      ],
    },
    {
      role: 'user',
      content: [
        {
          type: 'tool_result',
          tool_use_id: 'toolu_1',
          cache_control: CACHE,
          content: [
            { type: 'text', text: 'Found one. ' },
            { type: 'tool_reference', tool_name: 'get_weather' },
            SEARCH_RESULT,
          ],
        },
      ],
    },
  ],
});

describe('content the vendor owns', () => {
  let gw: TestGateway;
  let recorder: Recorder;
  let key: string;

  beforeAll(async () => {
    recorder = await startVendorRecorder();
    const price = { input_per_million: 1, output_per_million: 1 };
    ({ gw, key } = await startGatewayOnStandIns({
      providers: {
        claude: { kind: 'anthropic', base_url: recorder.url, api_key: 'sk-rec' },
        gpt: { kind: 'openai', base_url: `${recorder.url}/v1`, api_key: 'sk-rec' },
      },
      models: [
        { id: 'vc-claude', deployments: [{ provider: 'claude', model: 'up-claude' }], price },
        { id: 'vc-gpt', deployments: [{ provider: 'gpt', model: 'up-gpt' }], price },
        { id: 'vc-strict', deployments: [{ provider: 'claude', model: 'up-strict' }], price },
      ],
    }));
  });
  afterAll(async () => {
    await gw?.close();
    await recorder?.close();
  });

  const last = () => recorder.last();
  const post = (path: string, json: unknown) => gw.fetch(path, { method: 'POST', key, json });
  const droppedOf = (res: Response) =>
    (res.headers.get('x-modelgate-dropped-params') ?? '').split(',').map(decodeURIComponent);

  const usageOf = (requestId: string) => usageRecordOf(gw, requestId);

  it('reach an Anthropic upstream byte for byte, cache breakpoints included, billed as cached', async () => {
    const sent = conversation('vc-claude', [FILE_IMAGE]);
    const res = await post('/v1/messages', sent);
    expect(res.status, await res.text()).toBe(200);
    expect(last().path).toBe('/v1/messages');
    expect(res.headers.get('x-modelgate-dropped-params')).toBeNull();
    expect(last().body).toEqual({ ...sent, model: 'up-claude', stream: false });
    // The bytes are the client's, every key where the client put it: the model is the
    // deployment's, and `stream: false` (the spec's default for an absent stream) comes last.
    expect(last().raw).toBe(JSON.stringify({ ...sent, model: 'up-claude', stream: false }));
    const record = await usageOf(res.headers.get('x-request-id')!);
    expect(record).toMatchObject({ input_tokens: 5, cache_read_tokens: 1000, output_tokens: 2 });
  });

  it('become text for an OpenAI upstream where they have some; the rest is dropped and listed', async () => {
    const res = await post('/v1/messages', conversation('vc-gpt', [FILE_IMAGE]));
    expect(res.status, await res.text()).toBe(200);
    expect(last().path).toBe('/v1/chat/completions');
    const messages = last().body.messages as Array<Record<string, unknown>>;
    expect(messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Read these.' },
          { type: 'text', text: 'The report says 42.' },
          { type: 'text', text: 'Sunny in Paris.' },
          { type: 'image_url', image_url: { url: 'https://example.com/cat.png' } },
        ],
      },
      {
        role: 'assistant',
        content: 'Searching.',
        tool_calls: [
          {
            id: 'toolu_1',
            type: 'function',
            function: { name: 'ToolSearch', arguments: '{"query":"weather"}' },
          },
        ],
      },
      { role: 'tool', tool_call_id: 'toolu_1', content: 'Found one. Sunny in Paris.' },
    ]);
    expect(droppedOf(res).sort()).toEqual(
      [
        'messages.*.content.*(document)',
        'messages.*.content.*(container_upload)',
        'messages.*.content.*(image)',
        'messages.*.content.*(server_tool_use)',
        'messages.*.content.*(web_search_tool_result)',
        'messages.*.content.*.content.*(tool_reference)',
      ].sort(),
    );
  });

  it('a streamed translation lists them too', async () => {
    const res = await post('/v1/messages', { ...conversation('vc-gpt'), stream: true });
    await res.text();
    expect(res.status).toBe(200);
    expect(droppedOf(res)).toContain('messages.*.content.*(server_tool_use)');
  });

  it('a kind name that is not a header token is listed percent-encoded', async () => {
    const res = await post('/v1/messages', {
      model: 'vc-gpt',
      max_tokens: 8,
      messages: [
        { role: 'user', content: [{ type: 'odd kind,\u00e9' }, { type: 'text', text: 'Hi' }] },
      ],
    });
    expect(res.status, await res.text()).toBe(200);
    expect(res.headers.get('x-modelgate-dropped-params')).toBe(
      'messages.*.content.*(odd%20kind%2C%C3%A9)',
    );
    expect(droppedOf(res)).toEqual(['messages.*.content.*(odd kind,\u00e9)']);
  });

  describe('blocks of the listed kinds stay strict', () => {
    const one = (block: unknown, role = 'user') => ({
      model: 'vc-claude',
      max_tokens: 8,
      messages: [{ role, content: [block] }],
    });
    // The messages route answers in the vendor's error shape: the field is named in the message.
    const messageOf = async (res: Response) => {
      expect(res.status).toBe(400);
      const body = (await res.json()) as { type: string; error: { type: string; message: string } };
      expect(body).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
      return body.error.message;
    };

    it('a text block without text is a 400 naming the field', async () => {
      const res = await post('/v1/messages', one({ type: 'text', cache_control: CACHE }));
      expect(await messageOf(res)).toBe('Missing required field: messages.0.content.0.text.');
    });

    it('an image without a source, and a tool_use without an id, are 400s naming the field', async () => {
      const image = await post('/v1/messages', one({ type: 'image' }));
      expect(await messageOf(image)).toBe('Missing required field: messages.0.content.0.source.');
      const call = { type: 'tool_use', name: 'f', input: {} };
      const toolUse = await post('/v1/messages', one(call, 'assistant'));
      expect(await messageOf(toolUse)).toBe('Missing required field: messages.0.content.0.id.');
    });

    it('count_tokens checks the listed kinds the same way', async () => {
      const { max_tokens: _, ...body } = one({ type: 'text', text: 7 });
      const res = await post('/v1/messages/count_tokens', body);
      expect(await messageOf(res)).toBe(
        'Invalid type for messages.0.content.0.text: expected string.',
      );
    });

    it('a block without a type is a 400 naming it', async () => {
      const res = await post('/v1/messages', one({ text: 'no type' }));
      expect(await messageOf(res)).toMatch(/messages\.0\.content\.0/);
    });

    it('a role outside user, assistant and system is a 400 naming the allowed ones', async () => {
      const res = await post('/v1/messages', {
        model: 'vc-claude',
        max_tokens: 8,
        messages: [{ role: 'developer', content: 'Hi' }],
      });
      expect(await messageOf(res)).toBe(
        'messages.0.role must be one of: "user", "assistant", "system".',
      );
    });
  });

  describe('system turns', () => {
    const withSystemTurn = (model: string) => ({
      model,
      max_tokens: 8,
      system: 'Be brief.',
      messages: [
        { role: 'user', content: 'Hi' },
        {
          role: 'system',
          content: [{ type: 'text', text: 'Answer in French.', cache_control: CACHE }],
        },
        { role: 'user', content: 'Say hello.' },
      ],
    });
    const FOLDED = {
      system: [
        { type: 'text', text: 'Be brief.' },
        { type: 'text', text: 'Answer in French.', cache_control: CACHE },
      ],
      messages: [
        { role: 'user', content: 'Hi' },
        { role: 'user', content: 'Say hello.' },
      ],
    };

    it('stay in place for an upstream that takes them', async () => {
      const sent = withSystemTurn('vc-claude');
      const res = await post('/v1/messages', sent);
      expect(res.status, await res.text()).toBe(200);
      expect(last().body.messages).toEqual(sent.messages);
      expect(last().body.system).toBe('Be brief.');
    });

    it('are folded into system for an upstream that refuses them, then folded before they go', async () => {
      const before = recorder.seen.length;
      const first = await post('/v1/messages', withSystemTurn('vc-strict'));
      expect(first.status, await first.text()).toBe(200);
      // Sent as written, refused, sent again folded.
      expect(recorder.seen.length).toBe(before + 2);
      expect(recorder.seen[before]!.body.messages).toHaveLength(3);
      expect(last().body).toMatchObject(FOLDED);
      // The deployment is remembered: the next one goes folded, once.
      const second = await post('/v1/messages', { ...withSystemTurn('vc-strict'), stream: false });
      expect(second.status).toBe(200);
      expect(recorder.seen.length).toBe(before + 3);
      expect(last().body).toMatchObject(FOLDED);
      const { max_tokens: _, ...count } = withSystemTurn('vc-strict');
      const counted = await post('/v1/messages/count_tokens', count);
      expect(counted.status, await counted.text()).toBe(200);
      expect(recorder.seen.length).toBe(before + 4);
      expect(last().path).toBe('/v1/messages/count_tokens');
      expect(last().body).toMatchObject(FOLDED);
    });

    it('a body without system turns goes as sent to that upstream', async () => {
      const res = await post('/v1/messages', {
        model: 'vc-strict',
        max_tokens: 8,
        messages: [{ role: 'user', content: 'Hi' }],
      });
      expect(res.status).toBe(200);
      expect(last().body.messages).toEqual([{ role: 'user', content: 'Hi' }]);
      expect(last().body.system).toBeUndefined();
    });
  });

  describe('responses input items of other kinds', () => {
    const input = [
      { type: 'message', role: 'user', content: 'What tools are there?' },
      {
        type: 'mcp_list_tools',
        id: 'mcpl_1',
        server_label: 'deepwiki',
        tools: [{ name: 'ask', input_schema: { type: 'object' } }],
      },
      { type: 'item_reference', id: 'msg_0' },
      {
        type: 'message',
        role: 'user',
        content: [
          { type: 'input_text', text: 'Use them.' },
          { type: 'input_audio', input_audio: { data: 'UklGRg==', format: 'wav' } },
        ],
      },
    ];

    it('pass through to a native OpenAI upstream unchanged', async () => {
      const res = await post('/v1/responses', { model: 'vc-gpt', input, store: false });
      expect(res.status, await res.text()).toBe(200);
      expect(last().path).toBe('/v1/responses');
      expect(last().body.input).toEqual(input);
      for (const item of input) expect(last().raw).toContain(JSON.stringify(item));
      expect(res.headers.get('x-modelgate-dropped-params')).toBeNull();
    });

    it('are dropped and listed for a translated upstream', async () => {
      const res = await post('/v1/responses', { model: 'vc-claude', input, store: false });
      expect(res.status, await res.text()).toBe(200);
      expect(last().path).toBe('/v1/messages');
      // The two user messages left make one user turn.
      expect(last().body.messages).toEqual([
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What tools are there?' },
            { type: 'text', text: 'Use them.' },
          ],
        },
      ]);
      expect(droppedOf(res)).toEqual(
        expect.arrayContaining([
          'store',
          'input.*(mcp_list_tools)',
          'input.*(item_reference)',
          'input.*.content.*(input_audio)',
        ]),
      );
    });
  });
});

describe('the simulator', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway();
  });
  afterAll(() => gw?.close());

  for (const model of ['claude-sonnet-4-5', 'gpt-4o-mini']) {
    it(`answers a conversation holding them on ${model}`, async () => {
      const { key } = await gw.createKey();
      const res = await gw.fetch('/v1/messages', {
        method: 'POST',
        key,
        json: conversation(model),
      });
      const text = await res.text();
      expect(res.status, text).toBe(200);
      expect(JSON.parse(text)).toMatchObject({ type: 'message', role: 'assistant' });
    });
  }

  it('answers a conversation with a system turn on a Claude model, create and count', async () => {
    const { key } = await gw.createKey();
    const body = {
      model: 'claude-sonnet-4-5',
      max_tokens: 16,
      messages: [
        { role: 'user', content: 'Hi' },
        { role: 'system', content: 'Answer in French.' },
        { role: 'user', content: 'Say hello.' },
      ],
    };
    for (const stream of [false, true]) {
      const res = await gw.fetch('/v1/messages', {
        method: 'POST',
        key,
        json: { ...body, stream },
      });
      const text = await res.text();
      expect(res.status, text).toBe(200);
      expect(text).toContain(stream ? 'message_stop' : '"type":"message"');
    }
    const { max_tokens: _, ...count } = body;
    const counted = await gw.fetch('/v1/messages/count_tokens', {
      method: 'POST',
      key,
      json: count,
    });
    expect(counted.status, await counted.text()).toBe(200);
  });

  for (const model of ['gpt-4o-mini', 'claude-sonnet-4-5']) {
    it(`answers responses input holding items of other types on ${model}`, async () => {
      const { key } = await gw.createKey();
      const res = await gw.fetch('/v1/responses', {
        method: 'POST',
        key,
        json: {
          model,
          input: [
            { type: 'item_reference', id: 'msg_0' },
            { type: 'message', role: 'user', content: 'Hello there' },
          ],
        },
      });
      const text = await res.text();
      expect(res.status, text).toBe(200);
      expect(JSON.parse(text)).toMatchObject({ object: 'response', status: 'completed' });
    });
  }
});
