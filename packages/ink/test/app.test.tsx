// The chat screen against a real gateway (demo mode): typing, streaming, slash commands, errors, stop.
import { createClient } from '@modelgate/core';
import { cleanup, render } from 'ink-testing-library';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { App } from '../src/ui/App.js';
import { flat, plain, waitForFrame } from './frames.js';
import { renderInTerminal } from './small-terminal.js';
import { startEndlessStreamServer } from './sse-server.js';

const gateway = inject('gateway');
const config = { baseUrl: gateway.url, apiKey: gateway.userKey, model: 'gpt-4o-mini' };
const client = createClient({ baseUrl: gateway.url, apiKey: gateway.userKey });

/** What the (deterministic) simulator answers to `prompt`, asked without streaming. */
async function expectedAnswer(model: string, prompt: string): Promise<string> {
  const completion = await client.chat.completions.create({
    model,
    messages: [{ role: 'user', content: prompt }],
  });
  return completion.choices[0]?.message.content ?? '';
}

/** Types a line the way a person does: the text, then Enter once the text is on screen. */
async function typeLine(
  app: { stdin: { write(data: string): void }; lastFrame(): string | undefined },
  line: string,
) {
  app.stdin.write(line);
  await waitForFrame(app.lastFrame, (frame) => flat(frame).includes(line));
  app.stdin.write('\r');
}

afterEach(() => cleanup());

describe('chat screen', () => {
  it('streams an answer into the scrollback and counts its tokens', async () => {
    const prompt = 'Tell me about rivers';
    const expected = await expectedAnswer('gpt-4o-mini', prompt);
    expect(expected.split(' ').length).toBeGreaterThan(5);

    const app = render(<App config={config} batchMs={30} />);
    await waitForFrame(app.lastFrame, (f) => f.includes('credits') && !f.includes('credits …'));
    await typeLine(app, prompt);

    const done = await waitForFrame(
      app.lastFrame,
      (f) => flat(f).includes(expected) && !f.includes('▍') && /[1-9]\d* tokens/.test(f),
    );
    expect(flat(done)).toContain(`› ${prompt} gpt-4o-mini ${expected}`);
    // The answer arrived in pieces: some frame showed part of it with the streaming cursor.
    const partial = app.frames.map(plain).filter((f) => f.includes('▍'));
    expect(partial.length).toBeGreaterThan(0);
    expect(partial.some((f) => !flat(f).includes(expected))).toBe(true);
    // The input is empty again and ready.
    expect(done).toContain('Type a message or /help');
  });

  it('with api="responses" streams from /v1/responses and continues the conversation', async () => {
    const prompt = 'Tell me about harbours';
    const reference = await client.responses.create({
      model: 'gpt-4o-mini',
      input: prompt,
      store: false,
    });
    const expected = reference.output_text ?? '';
    const app = render(<App config={config} batchMs={30} api="responses" />);
    await waitForFrame(app.lastFrame, (f) => f.includes('credits') && !f.includes('credits …'));
    await typeLine(app, prompt);
    const done = await waitForFrame(
      app.lastFrame,
      (f) => flat(f).includes(expected) && !f.includes('▍') && /[1-9]\d* tokens/.test(f),
    );
    expect(flat(done)).toContain(`› ${prompt} gpt-4o-mini ${expected}`);
    // The second turn names the first (previous_response_id) and is answered too.
    await typeLine(app, 'And their lighthouses?');
    const second = await waitForFrame(
      app.lastFrame,
      (f) => (f.match(/↳ \d+ tokens/g) ?? []).length === 2 && !f.includes('▍'),
    );
    expect(flat(second)).toContain('› And their lighthouses?');
    expect(second).not.toMatch(/error|404/i);
  });

  it('switches models with /model and lists them with /models', async () => {
    const app = render(<App config={config} batchMs={30} />);
    await typeLine(app, '/models');
    const listed = await waitForFrame(app.lastFrame, (f) => f.includes('vidu-q2'));
    expect(listed).toMatch(/\* gpt-4o-mini\s+text\s+openai/);
    expect(listed).toMatch(/claude-haiku-4-5\s+text\s+anthropic/);

    await typeLine(app, '/model claude-haiku-4-5');
    await waitForFrame(app.lastFrame, (f) => f.includes('model → claude-haiku-4-5'));
    const prompt = 'Which model are you';
    const expected = await expectedAnswer('claude-haiku-4-5', prompt);
    await typeLine(app, prompt);
    const done = await waitForFrame(
      app.lastFrame,
      (f) => flat(f).includes(expected) && !f.includes('▍'),
    );
    // The label is the model named by the streamed chunks, i.e. the one that answered.
    expect(flat(done)).toContain(`› ${prompt} claude-haiku-4-5 ${expected}`);
    expect(plain(app.lastFrame()).split('\n').at(-1)).toMatch(/^claude-haiku-4-5 · /);
  });

  it('shows a bad key as a 401 with its code, not a stack trace', async () => {
    const app = render(<App config={{ ...config, apiKey: 'sk-not-a-real-key' }} />);
    await typeLine(app, 'hello?');
    const frame = await waitForFrame(app.lastFrame, (f) => f.includes('✗ Error'));
    expect(frame).toContain('✗ Error 401 invalid_api_key: Invalid API key.');
    expect(frame).not.toMatch(/\n\s+at /);
    expect(frame).toContain('credits ? (401)');
  });

  it('reports an unknown slash command and shows /help', async () => {
    const app = render(<App config={config} />);
    await typeLine(app, '/frobnicate');
    await waitForFrame(app.lastFrame, (f) => f.includes('unknown command /frobnicate'));
    await typeLine(app, '/help');
    const help = await waitForFrame(app.lastFrame, (f) => f.includes('/video <model> <prompt>'));
    expect(help).toContain('/balance');
  });

  it('prints the balance with /balance', async () => {
    const summary = await client.billing.creditGrants();
    const app = render(<App config={config} />);
    await typeLine(app, '/balance');
    const frame = await waitForFrame(app.lastFrame, (f) => f.includes('credits left'));
    expect(frame).toMatch(/[\d.,]+ credits left \(100 granted, [\d.]+ used\)/);
    expect(summary.total_granted).toBe(100);
  });

  it('Esc stops a streaming answer and closes the connection', async () => {
    const server = await startEndlessStreamServer();
    try {
      const app = render(<App config={{ ...config, baseUrl: server.url }} batchMs={30} />);
      await typeLine(app, 'never stop');
      await waitForFrame(app.lastFrame, (f) => f.includes('word5 ') && f.includes('Esc to stop'));
      app.stdin.write('\u001b');
      const stopped = await waitForFrame(app.lastFrame, (f) => f.includes('[stopped]'));
      await server.clientClosed;
      expect(stopped).not.toContain('▍');
      expect(flat(stopped)).toMatch(/endless-model word0 word1 word2 word3 word4 word5 /);
      expect(stopped).toContain('Type a message or /help');
    } finally {
      await server.close();
    }
  });

  it('Ctrl+C stops an answer first, and asks before exiting', async () => {
    const server = await startEndlessStreamServer();
    try {
      const app = render(<App config={{ ...config, baseUrl: server.url }} batchMs={30} />);
      await typeLine(app, 'keep going');
      await waitForFrame(app.lastFrame, (f) => f.includes('word3 '));
      app.stdin.write('\u0003');
      const frame = await waitForFrame(app.lastFrame, (f) => f.includes('[stopped]'));
      expect(frame).toContain('Press Ctrl+C again to exit');
      await server.clientClosed;
    } finally {
      await server.close();
    }
  });

  it('follows /video until the task is done and shows the CDN URL', async () => {
    const app = render(<App config={config} videoPollMs={100} />);
    await typeLine(app, '/video vidu-q2 a red fox in the snow');
    const frame = await waitForFrame(
      app.lastFrame,
      (f) => f.includes('✓ video vidu-q2') || f.includes('✗'),
      15_000,
    );
    expect(frame).toMatch(/✓ video vidu-q2 vt_\w+ completed \(\d+s, \d+x\d+\)/);
    const url = frame.match(/https?:\/\/\S+\.mp4/)?.[0];
    expect(url).toBeDefined();
    const video = await fetch(url!);
    expect(video.status).toBe(200);
    expect(video.headers.get('content-type')).toContain('video/mp4');
    // While it ran, a progress line was drawn.
    expect(app.frames.map(plain).some((f) => /◌ video vidu-q2 .*%/.test(f))).toBe(true);
  });
});

describe('long answers', () => {
  it('prints finished paragraphs once, in order, and redraws only the last one', async () => {
    // Chunk n is the word "w<n>"; every 4th chunk ends a paragraph.
    const server = await startEndlessStreamServer((n) => (n % 4 === 3 ? `w${n}\n\n` : `w${n} `));
    // 20 rows: the live part may use 12, far less than the answer grows to before the stop.
    const app = renderInTerminal(
      <App config={{ ...config, baseUrl: server.url }} batchMs={20} />,
      100,
      20,
    );
    try {
      await typeLine(app, 'write paragraphs');
      await waitForFrame(app.lastFrame, (f) => f.includes('w40 '));
      // The first paragraphs were printed to the scrollback, not clipped from a redrawn answer.
      const streaming = plain(app.lastFrame());
      expect(streaming).toMatch(/endless-model\nw0 w1 w2 w3\n\nw4 w5 w6 w7\n/);
      expect(streaming).not.toMatch(/^…/m);
      expect(streaming.match(/▍/g)).toHaveLength(1);
      app.stdin.write('\u001b');
      const stopped = await waitForFrame(app.lastFrame, (f) => f.includes('[stopped]'));
      await server.clientClosed;
      const indexes = (flat(stopped).match(/w\d+/g) ?? []).map((w) => Number(w.slice(1)));
      // Every chunk exactly once, in order, and the model header once.
      expect(indexes.length).toBeGreaterThan(40);
      expect(indexes).toEqual(indexes.map((_, i) => i));
      expect(stopped.match(/endless-model/g)).toHaveLength(1);
    } finally {
      app.unmount();
      await server.close();
    }
  });
});
