import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { renderHook, waitFor } from '@testing-library/react';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { getMessageText, useChat } from '../src/index.js';
import { answerCors } from './cors.js';

// A loopback SSE server that sends many chunks about a millisecond apart: each arrives in its own
// network read (its own task), so React cannot batch them by itself; the hook must.
const WORDS = Array.from({ length: 200 }, (_, i) => `w${i} `);
let url = '';
const server = createServer((req, res) => {
  if (answerCors(req, res)) return;
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  const frames = WORDS.map(
    (word, i) =>
      `data: ${JSON.stringify({
        id: 'chatcmpl-burst',
        object: 'chat.completion.chunk',
        created: 1,
        model: 'burst',
        choices: [
          {
            index: 0,
            delta: { content: word },
            finish_reason: i === WORDS.length - 1 ? 'stop' : null,
          },
        ],
      })}\n\n`,
  );
  let next = 0;
  const writeNext = () => {
    if (next < frames.length) {
      res.write(frames[next++]);
      setTimeout(writeNext, 1);
    } else {
      res.end('data: [DONE]\n\n');
    }
  };
  writeNext();
});

// Inside act() React holds every update until act ends, which would hide per-chunk renders: this
// file lets React schedule renders as it does in a browser.
const actEnvironment = globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean };
const previousActEnvironment = actEnvironment.IS_REACT_ACT_ENVIRONMENT;
// happy-dom runs animation frames on the next tick; a display refreshes every ~16 ms.
const { requestAnimationFrame: domRaf, cancelAnimationFrame: domCaf } = globalThis;

beforeAll(async () => {
  actEnvironment.IS_REACT_ACT_ENVIRONMENT = false;
  globalThis.requestAnimationFrame = (callback) =>
    setTimeout(() => callback(performance.now()), 16) as unknown as number;
  globalThis.cancelAnimationFrame = (id) => clearTimeout(id);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  actEnvironment.IS_REACT_ACT_ENVIRONMENT = previousActEnvironment;
  globalThis.requestAnimationFrame = domRaf;
  globalThis.cancelAnimationFrame = domCaf;
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

it('renders fast chunks once per frame, not once per chunk', async () => {
  const assistantTexts: string[] = [];
  const { result } = renderHook(() => {
    const chat = useChat({ baseUrl: url, apiKey: 'sk-test', model: 'burst' });
    const last = chat.messages.at(-1);
    if (last?.role === 'assistant') assistantTexts.push(getMessageText(last));
    return chat;
  });
  const full = WORDS.join('');
  const started = performance.now();
  const answer = await result.current.append('Go');
  const elapsedMs = performance.now() - started;
  expect(answer?.content).toBe(full);
  await waitFor(() => expect(result.current.isLoading).toBe(false));
  expect(getMessageText(result.current.messages[1]!)).toBe(full);
  expect(assistantTexts.at(-1)).toBe(full);
  // One render per 16 ms frame at most (plus the final commit), however many chunks came.
  const renders = new Set(assistantTexts).size;
  expect(renders).toBeLessThanOrEqual(Math.ceil(elapsedMs / 16) + 2);
  expect(renders).toBeLessThan(WORDS.length);
});

it('shows the end of a turn at once, with all of its text', async () => {
  const renders: Array<{ status: string; text: string }> = [];
  const { result } = renderHook(() => {
    const chat = useChat({ baseUrl: url, apiKey: 'sk-test', model: 'burst' });
    const last = chat.messages.at(-1);
    renders.push({ status: chat.status, text: last ? getMessageText(last) : '' });
    return chat;
  });
  await result.current.append('Go');
  await waitFor(() => expect(result.current.status).toBe('ready'));
  // The status change is not held for a frame, and it never shows stale text.
  const firstReady = renders.find((r, i) => i > 0 && r.status === 'ready');
  expect(firstReady?.text).toBe(WORDS.join(''));
});
