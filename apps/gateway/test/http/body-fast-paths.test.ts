import { zCreateChatCompletionRequest, zCreateMessageRequest } from '@modelgate/core/zod';
import { describe, expect, it } from 'vitest';
import { chatBodyFastPath, messagesBodyFastPath } from '../../src/http/body-fast-paths.js';

// A small seeded generator, so a failure names a body that can be replayed.
function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** Values at and around every edge the fast path checks, plus wrong types. */
const EDGE_VALUES: unknown[] = [
  null,
  undefined,
  true,
  false,
  0,
  -0,
  1,
  2,
  -1,
  0.5,
  1.5,
  2.0000001,
  -2,
  64,
  65,
  1_000_000,
  1_000_001,
  2 ** 53 - 1,
  2 ** 53,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  '',
  'x',
  'gpt-4o-mini',
  'a'.repeat(64),
  'a'.repeat(65),
  [],
  ['x'],
  {},
  { type: 'text', text: 'hi' },
  [{ type: 'text', text: 'hi' }],
];
/** What the generator needs to know of one API's body. */
interface Api {
  roles: string[];
  messageKeys: string[];
  bodyKeys: string[];
  base: Record<string, unknown>;
}

const CHAT: Api = {
  roles: ['system', 'developer', 'user', 'assistant', 'tool', 'robot', ''],
  messageKeys: ['role', 'content', 'name', 'tool_call_id', 'tool_calls', 'extra'],
  bodyKeys: [
    'model',
    'messages',
    'stream',
    'temperature',
    'top_p',
    'max_tokens',
    'max_completion_tokens',
    'n',
    'user',
    'stop',
    'seed',
    'stream_options',
    'unknown_field',
  ],
  base: { model: 'gpt-4o-mini' },
};

const MESSAGES: Api = {
  roles: ['user', 'assistant', 'system', ''],
  messageKeys: ['role', 'content', 'name', 'extra'],
  bodyKeys: [
    'model',
    'messages',
    'max_tokens',
    'system',
    'stream',
    'temperature',
    'top_p',
    'top_k',
    'stop_sequences',
    'metadata',
    'unknown_field',
  ],
  base: { model: 'claude-3-5-haiku', max_tokens: 64 },
};

function generate(api: Api, random: () => number) {
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)]!;
  const message = () => {
    const m: Record<string, unknown> = {
      role: random() < 0.7 ? 'user' : pick(api.roles),
      content: 'Hello there',
    };
    // Usually valid; sometimes one key changed to an edge value, added or removed.
    if (random() < 0.4) m[pick(api.messageKeys)] = pick(EDGE_VALUES);
    if (random() < 0.1) delete m[pick(api.messageKeys)];
    if (random() < 0.1) m.name = pick(['bob', '', 'a'.repeat(64), 'a'.repeat(65)]);
    return m;
  };
  const body: Record<string, unknown> = {
    ...api.base,
    messages: Array.from({ length: 1 + Math.floor(random() * 3) }, message),
  };
  for (let i = Math.floor(random() * 4); i > 0; i--) body[pick(api.bodyKeys)] = pick(EDGE_VALUES);
  if (random() < 0.3) body.max_tokens = pick([1, 16, 4096, 0, 2.5, 1_000_000, 1_000_001]);
  if (random() < 0.3) body.stream = pick([true, false, null]);
  if (random() < 0.3) body.temperature = pick([0, 0.7, 1, 1.5, 2, null]);
  if (random() < 0.05) delete body[pick(['model', 'messages', 'max_tokens'])];
  // Undefined values do not survive JSON; the route only ever sees parsed JSON.
  return JSON.parse(JSON.stringify(body)) as unknown;
}

describe.each([
  {
    name: 'chatBodyFastPath',
    api: CHAT,
    schema: zCreateChatCompletionRequest,
    fast: chatBodyFastPath,
  },
  {
    name: 'messagesBodyFastPath',
    api: MESSAGES,
    schema: zCreateMessageRequest,
    fast: messagesBodyFastPath,
  },
] as const)('$name', ({ api, schema, fast }) => {
  it('returns exactly what zod returns whenever it accepts a body, on 20,000 generated bodies', () => {
    const random = rng(20261122);
    let accepted = 0;
    let declinedButValid = 0;
    for (let i = 0; i < 20_000; i++) {
      const json = JSON.stringify(generate(api, random));
      const zod = schema.safeParse(JSON.parse(json));
      const body = fast(JSON.parse(json));
      if (body === null) {
        if (zod.success) declinedButValid++;
        continue;
      }
      accepted++;
      if (!zod.success) throw new Error(`fast path accepted a body zod rejects: ${json}`);
      expect(body, json).toStrictEqual(zod.data);
    }
    // The generator reaches both sides: the fast path takes the common bodies, zod the rest.
    expect(accepted).toBeGreaterThan(500);
    expect(declinedButValid).toBeGreaterThan(500);
  });
});

describe('chatBodyFastPath', () => {
  it('takes the body the SDKs send, filling in zod’s defaults', () => {
    const sent = {
      model: 'gpt-4o-mini',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Hi', name: 'ann' },
      ],
      max_tokens: 16,
      temperature: 0.2,
    };
    expect(chatBodyFastPath(structuredClone(sent))).toEqual({ ...sent, stream: false, n: 1 });
  });

  it('leaves tools, content parts, tool messages and unknown fields to zod', () => {
    const base = { model: 'm', messages: [{ role: 'user', content: 'Hi' }] };
    expect(chatBodyFastPath(base)).not.toBeNull();
    expect(chatBodyFastPath({ ...base, tools: [] })).toBeNull();
    expect(chatBodyFastPath({ ...base, stream_options: { include_usage: true } })).toBeNull();
    expect(chatBodyFastPath({ ...base, frobnicate: 1 })).toBeNull();
    expect(
      chatBodyFastPath({ model: 'm', messages: [{ role: 'user', content: [{ type: 'text' }] }] }),
    ).toBeNull();
    expect(
      chatBodyFastPath({
        model: 'm',
        messages: [{ role: 'tool', content: 'x', tool_call_id: 'c' }],
      }),
    ).toBeNull();
    expect(chatBodyFastPath(JSON.parse('{"model":"m","messages":[],"__proto__":{}}'))).toBeNull();
    expect(chatBodyFastPath([base])).toBeNull();
  });
});

describe('messagesBodyFastPath', () => {
  it('takes the body the Anthropic SDK sends, filling in zod’s default', () => {
    const sent = {
      model: 'claude-3-5-haiku',
      max_tokens: 1024,
      system: 'Be brief.',
      messages: [
        { role: 'user', content: 'Hi' },
        { role: 'assistant', content: 'Hello.' },
        { role: 'user', content: 'Again' },
      ],
    };
    expect(messagesBodyFastPath(structuredClone(sent))).toEqual({ ...sent, stream: false });
  });

  it('leaves content blocks, tools, nulls and missing max_tokens to zod', () => {
    const base = { model: 'm', max_tokens: 8, messages: [{ role: 'user', content: 'Hi' }] };
    expect(messagesBodyFastPath(base)).not.toBeNull();
    expect(messagesBodyFastPath({ ...base, max_tokens: undefined })).toBeNull();
    expect(messagesBodyFastPath({ ...base, temperature: null })).toBeNull();
    expect(messagesBodyFastPath({ ...base, tools: [] })).toBeNull();
    expect(
      messagesBodyFastPath({
        ...base,
        messages: [{ role: 'user', content: [{ type: 'text', text: 'x' }] }],
      }),
    ).toBeNull();
    expect(messagesBodyFastPath({ ...base, messages: [{ role: 'user' }] })).toBeNull();
  });
});
