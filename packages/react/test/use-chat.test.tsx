import { createClient, ModelgateError } from '@modelgate/core';
import { act, renderHook, waitFor } from '@testing-library/react';
import { StrictMode } from 'react';
import { describe, expect, inject, it, vi } from 'vitest';
import { getMessageText, type UIMessage, useChat } from '../src/index.js';

const gateway = inject('gateway');
const model = 'gpt-4o-mini';

/** The simulator answers a prompt deterministically: the non-streamed answer is the reference. */
async function referenceAnswer(prompt: string): Promise<string> {
  const client = createClient({ baseUrl: gateway.url, apiKey: gateway.apiKey });
  const completion = await client.chat.completions.create({
    model,
    messages: [{ role: 'user', content: prompt }],
  });
  return completion.choices[0]?.message.content ?? '';
}

describe('useChat against a real gateway', () => {
  it('streams the answer into the last assistant message, rendering partial text on the way', async () => {
    const onFinish = vi.fn();
    const { result } = renderHook(() =>
      useChat({ baseUrl: gateway.url, apiKey: gateway.apiKey, model, onFinish }),
    );
    const seen = new Set<string>();
    let finished: UIMessage | null = null;
    let pending!: Promise<UIMessage | null>;
    act(() => {
      pending = result.current.append('Tell me about kites');
    });
    expect(result.current.isLoading).toBe(true);
    expect(result.current.status).toBe('submitted');
    expect(result.current.messages).toHaveLength(1);
    const statuses = new Set<string>();
    // Record every assistant text React rendered while the answer streamed.
    await waitFor(
      () => {
        const last = result.current.messages.at(-1);
        statuses.add(result.current.status);
        if (last?.role === 'assistant') seen.add(getMessageText(last));
        expect(result.current.isLoading).toBe(false);
      },
      { interval: 10, timeout: 10_000 },
    );
    finished = await pending;
    expect(statuses.has('streaming')).toBe(true);
    expect(result.current.status).toBe('ready');

    const expected = await referenceAnswer('Tell me about kites');
    expect(expected.length).toBeGreaterThan(0);
    expect(result.current.error).toBeUndefined();
    expect(result.current.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(getMessageText(result.current.messages[1]!)).toBe(expected);
    expect(finished?.content).toBe(expected);
    // At least one render showed a strict prefix: the text grew while streaming.
    const partial = [...seen].filter((text) => text.length < expected.length);
    expect(partial.length).toBeGreaterThan(0);
    for (const text of partial) expect(expected.startsWith(text)).toBe(true);

    expect(onFinish).toHaveBeenCalledTimes(1);
    const [message, details] = onFinish.mock.calls[0]!;
    expect(message.id).toBe(result.current.messages[1]!.id);
    expect(details.finishReason).toBe('stop');
    expect(details.usage?.completion_tokens).toBeGreaterThan(0);
  });

  it('sends the input through handleSubmit and carries the conversation into the next turn', async () => {
    const { result } = renderHook(() =>
      useChat({ baseUrl: gateway.url, apiKey: gateway.apiKey, model, body: { max_tokens: 3 } }),
    );
    act(() => result.current.setInput('   '));
    act(() => result.current.handleSubmit({ preventDefault() {} }));
    expect(result.current.isLoading).toBe(false); // blank input is not sent

    act(() => result.current.setInput('First question'));
    act(() => result.current.handleSubmit({ preventDefault() {} }));
    expect(result.current.input).toBe('');
    await waitFor(() => expect(result.current.isLoading).toBe(false), { timeout: 10_000 });
    const firstAnswer = getMessageText(result.current.messages[1]!);
    // `body` reached the gateway: max_tokens 3 cuts the answer to three one-token words.
    expect(firstAnswer.trim().split(/\s+/)).toHaveLength(3);

    await act(() => result.current.append('Second question'));
    expect(result.current.messages.map((m) => m.role)).toEqual([
      'user',
      'assistant',
      'user',
      'assistant',
    ]);
    expect(getMessageText(result.current.messages[1]!)).toBe(firstAnswer);
  });

  it('stop() aborts the stream and keeps the text received so far', async () => {
    const onFinish = vi.fn();
    const { result } = renderHook(() =>
      useChat({ baseUrl: gateway.url, apiKey: gateway.apiKey, model, onFinish }),
    );
    let pending!: Promise<UIMessage | null>;
    act(() => {
      pending = result.current.append('Please stop me early');
    });
    await waitFor(() => expect(result.current.messages.at(-1)?.role).toBe('assistant'), {
      interval: 5,
      timeout: 10_000,
    });
    act(() => result.current.stop());
    expect(result.current.isLoading).toBe(false);
    expect(await pending).toBeNull(); // an answer that ran to its end resolves with the message
    const kept = getMessageText(result.current.messages.at(-1)!);
    const expected = await referenceAnswer('Please stop me early');
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.length).toBeLessThan(expected.length);
    expect(expected.startsWith(kept)).toBe(true);
    expect(onFinish).not.toHaveBeenCalled();
    expect(result.current.error).toBeUndefined();
  });

  it('regenerate() replaces the last answer with a fresh one', async () => {
    const { result } = renderHook(() =>
      useChat({
        client: createClient({ baseUrl: gateway.url, apiKey: gateway.apiKey }),
        model,
        initialMessages: [
          { role: 'user', content: 'Reload me' },
          { role: 'assistant', content: 'a stale answer' },
        ],
      }),
    );
    expect(result.current.messages.every((m) => typeof m.id === 'string')).toBe(true);
    await act(() => result.current.regenerate());
    expect(result.current.messages).toHaveLength(2);
    expect(getMessageText(result.current.messages[1]!)).toBe(await referenceAnswer('Reload me'));
  });

  it.each([
    { name: 'no credit', key: () => gateway.brokeKey, body: {}, status: 402, code: undefined },
    {
      name: 'an invalid key',
      key: () => 'sk-not-a-real-key',
      body: {},
      status: 401,
      code: 'invalid_api_key',
    },
    {
      name: 'an out-of-range field',
      key: () => gateway.apiKey,
      body: { temperature: 5 },
      status: 400,
      code: 'out_of_range',
    },
  ])('surfaces $name as error.status / error.code', async ({ key, body, status, code }) => {
    const onError = vi.fn();
    const { result } = renderHook(() =>
      useChat({ baseUrl: gateway.url, apiKey: key(), model, body, onError }),
    );
    let answer: UIMessage | null | undefined;
    await act(async () => {
      answer = await result.current.append('Hello?');
    });
    expect(answer).toBeNull();
    const error = result.current.error;
    expect(error).toBeInstanceOf(ModelgateError);
    expect(error?.status).toBe(status);
    if (code) expect(error?.code).toBe(code);
    expect(result.current.status).toBe('error');
    expect(result.current.isLoading).toBe(false);
    expect(onError).toHaveBeenCalledWith(error);
    // The failed turn leaves the user's message and no empty assistant message.
    expect(result.current.messages.map((m) => m.role)).toEqual(['user']);
  });

  it('aborts on unmount without updating state afterwards', async () => {
    const consoleError = vi.spyOn(console, 'error');
    const onFinish = vi.fn();
    const onError = vi.fn();
    const { result, unmount } = renderHook(() =>
      useChat({ baseUrl: gateway.url, apiKey: gateway.apiKey, model, onFinish, onError }),
    );
    let pending!: Promise<UIMessage | null>;
    act(() => {
      pending = result.current.append('Unmount me');
    });
    await waitFor(() => expect(result.current.messages.at(-1)?.role).toBe('assistant'), {
      interval: 5,
      timeout: 10_000,
    });
    unmount();
    expect(await pending).toBeNull();
    expect(onFinish).not.toHaveBeenCalled();
    expect(onError).not.toHaveBeenCalled();
    expect(consoleError).not.toHaveBeenCalled();
    consoleError.mockRestore();
  });

  it('streams the messages format too, exposing usage and the finish reason', async () => {
    const { result } = renderHook(() =>
      useChat({
        baseUrl: gateway.url,
        apiKey: gateway.apiKey,
        model: 'claude-sonnet-4-5',
        format: 'messages',
        body: { max_tokens: 256 },
      }),
    );
    await act(() => result.current.append('Tell me about kites'));
    const reference = await createClient({
      baseUrl: gateway.url,
      apiKey: gateway.apiKey,
    }).messages.create({
      model: 'claude-sonnet-4-5',
      max_tokens: 256,
      messages: [{ role: 'user', content: 'Tell me about kites' }],
    });
    const expected = reference.content.map((b) => (b.type === 'text' ? b.text : '')).join('');
    expect(getMessageText(result.current.messages[1]!)).toBe(expected);
    expect(result.current.finishReason).toBe('stop');
    expect(result.current.usage?.completion_tokens).toBe(reference.usage.output_tokens);
    expect(result.current.totalUsage.total_tokens).toBeGreaterThan(0);
  });

  it('streams the responses format, continuing with previous_response_id', async () => {
    const { result } = renderHook(() =>
      useChat({
        baseUrl: gateway.url,
        apiKey: gateway.apiKey,
        model: 'claude-sonnet-4-5',
        format: 'responses',
        body: { max_output_tokens: 256 },
      }),
    );
    const reference = await createClient({
      baseUrl: gateway.url,
      apiKey: gateway.apiKey,
    }).responses.create({
      model: 'claude-sonnet-4-5',
      max_output_tokens: 256,
      input: 'Tell me about kites',
      store: false,
    });
    await act(() => result.current.append('Tell me about kites'));
    expect(getMessageText(result.current.messages[1]!)).toBe(reference.output_text);
    expect(result.current.finishReason).toBe('stop');
    expect(result.current.usage?.completion_tokens).toBe(reference.usage?.output_tokens);
    await act(() => result.current.append('And kite festivals?'));
    expect(result.current.status).toBe('ready');
    expect(result.current.messages.map((m) => m.role)).toEqual([
      'user',
      'assistant',
      'user',
      'assistant',
    ]);
  });

  it('works under StrictMode (effects run twice on mount)', async () => {
    const { result } = renderHook(
      () => useChat({ baseUrl: gateway.url, apiKey: gateway.apiKey, model }),
      { wrapper: StrictMode },
    );
    await act(() => result.current.append('Tell me about kites'));
    expect(result.current.status).toBe('ready');
    expect(getMessageText(result.current.messages[1]!)).toBe(
      await referenceAnswer('Tell me about kites'),
    );
  });

  it('keeps every function the same across renders and turns', async () => {
    const { result, rerender } = renderHook(
      ({ model: current }: { model: string }) =>
        useChat({ baseUrl: gateway.url, apiKey: gateway.apiKey, model: current }),
      { initialProps: { model } },
    );
    const first = result.current;
    await act(() => result.current.append('Hi'));
    rerender({ model: 'claude-sonnet-4-5' });
    const later = result.current;
    for (const name of [
      'append',
      'regenerate',
      'stop',
      'setMessages',
      'handleSubmit',
      'handleInputChange',
      'addToolResult',
      'continueChat',
    ] as const) {
      expect(later[name], name).toBe(first[name]);
    }
    // The new model is used by the next turn without a new session.
    const answer = await act(() => result.current.regenerate());
    expect(getMessageText(answer!)).toBe(await referenceAnswerFor('claude-sonnet-4-5', 'Hi'));
  });
});

async function referenceAnswerFor(chatModel: string, prompt: string): Promise<string> {
  const client = createClient({ baseUrl: gateway.url, apiKey: gateway.apiKey });
  const completion = await client.chat.completions.create({
    model: chatModel,
    messages: [{ role: 'user', content: prompt }],
  });
  return completion.choices[0]?.message.content ?? '';
}
