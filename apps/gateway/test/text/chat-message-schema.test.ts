/**
 * The per-role rules of chat messages are in the spec's schema (one schema per role), so the
 * generated zod — and with it the gateway's validation — enforces them.
 */
import { zChatMessage } from '@modelgate/core/zod';
import { describe, expect, it } from 'vitest';

const call = { id: 'call_1', type: 'function', function: { name: 'f', arguments: '{}' } };

describe('ChatMessage (spec schema)', () => {
  it.each([
    [{ role: 'user', content: 'hi' }],
    [{ role: 'system', content: [{ type: 'text', text: 'be brief' }] }],
    [{ role: 'assistant', content: 'hello' }],
    [{ role: 'assistant', content: null, tool_calls: [call] }],
    [{ role: 'assistant', tool_calls: [call] }],
    [{ role: 'assistant', content: 'calling', tool_calls: [call] }],
    [{ role: 'tool', tool_call_id: 'call_1', content: '18' }],
  ])('accepts %j', (message) => {
    expect(zChatMessage.safeParse(message).success).toBe(true);
  });

  it.each([
    [{ role: 'tool', content: '18' }],
    [{ role: 'tool', tool_call_id: '', content: '18' }],
    [{ role: 'user' }],
    [{ role: 'user', content: null }],
    [{ role: 'assistant' }],
    [{ role: 'assistant', content: null }],
    [{ role: 'assistant', content: null, tool_calls: [] }],
    [{ role: 'robot', content: 'x' }],
  ])('refuses %j', (message) => {
    expect(zChatMessage.safeParse(message).success).toBe(false);
  });
});
