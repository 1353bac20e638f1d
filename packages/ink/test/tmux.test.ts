// End to end in a real terminal: the built binary inside a detached tmux session, driven with
// send-keys and read with capture-pane, against the real gateway.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from '@modelgate/core';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { assertBuilt, CLI_PATH } from './cli-bin.js';
import { flat } from './frames.js';
import { writePng } from './images.js';

function hasTmux(): boolean {
  try {
    execFileSync('tmux', ['-V'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

const tmuxAvailable = hasTmux();
if (!tmuxAvailable) {
  console.warn(
    '\n!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!\n' +
      '!!  SKIPPING the tmux end-to-end test of the modelgate TUI: tmux is not     !!\n' +
      '!!  installed. Install it (apt-get install -y tmux) to run it.              !!\n' +
      '!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!\n',
  );
}

// A private tmux server (-L), so the test never touches the user's sessions.
const socket = `modelgate-ink-${process.pid}`;
const session = 'mg';
const tmux = (...args: string[]) =>
  execFileSync('tmux', ['-L', socket, ...args], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });

function sessionAlive(): boolean {
  try {
    tmux('has-session', '-t', session);
    return true;
  } catch {
    return false;
  }
}

/** Polls every 50 ms (bounded); fails with the last screen. */
async function waitFor(what: string, check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) {
      const screen = sessionAlive() ? tmux('capture-pane', '-p', '-t', session) : '(no session)';
      throw new Error(`timed out waiting for ${what}; screen:\n${screen}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const screen = () => tmux('capture-pane', '-p', '-t', session);
/** Types a line and Enter. */
const send = (line: string) => {
  tmux('send-keys', '-t', session, '-l', line);
  tmux('send-keys', '-t', session, 'Enter');
};
const shellQuote = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;

describe.skipIf(!tmuxAvailable)('modelgate in tmux', () => {
  const dir = mkdtempSync(join(tmpdir(), 'modelgate-ink-tmux-'));
  const exitFile = join(dir, 'exit-code');
  afterAll(() => {
    try {
      tmux('kill-server');
    } catch {
      // Already gone: the session ended with the app.
    }
    rmSync(dir, { recursive: true, force: true });
  });

  it('chats with streaming, switches the model in the picker, follows a video to its URL, then /exit ends the process', async () => {
    assertBuilt();
    const gateway = inject('gateway');
    const prompt = 'Hello from tmux';
    const client = createClient({ baseUrl: gateway.url, apiKey: gateway.userKey });
    const completion = await client.chat.completions.create({
      model: 'gpt-4o',
      messages: [{ role: 'user', content: prompt }],
    });
    const expected = completion.choices[0]?.message.content ?? '';

    // `env -u CI`: Ink draws only a final frame when it believes it runs in CI.
    const command = [
      'env -u CI',
      shellQuote(process.execPath),
      shellQuote(CLI_PATH),
      '--base-url',
      shellQuote(gateway.url),
      '--api-key',
      shellQuote(gateway.userKey),
      '--model gpt-4o',
      `; echo $? > ${shellQuote(exitFile)}`,
    ].join(' ');
    tmux('new-session', '-d', '-s', session, '-x', '100', '-y', '40', command);

    await waitFor('the prompt and the balance', () => {
      const s = screen();
      return s.includes('Type a message or /help') && /[\d.]+ credits/.test(s);
    });
    send(prompt);
    await waitFor('the streamed answer', () => {
      const s = screen();
      return flat(s).includes(`› ${prompt} gpt-4o ${expected}`) && s.includes('Enter to send');
    });
    expect(screen()).toMatch(/gpt-4o · 127\.0\.0\.1:\d+ · [1-9]\d* tokens · [\d.]+ credits/);

    // The picker: ↓ moves to the next text model, Enter picks it.
    const { data } = await client.models.list();
    const ids = data
      .filter((m) => m.type === 'text')
      .map((m) => m.id)
      .sort();
    const next = ids[(ids.indexOf('gpt-4o') + 1) % ids.length] ?? '';
    send('/model');
    await waitFor('the model picker', () => screen().includes('Enter to pick'));
    tmux('send-keys', '-t', session, 'Down');
    await waitFor('the highlight to move', () => screen().includes(`› ${next} `));
    tmux('send-keys', '-t', session, 'Enter');
    await waitFor('the new model', () => screen().includes(`model → ${next}`));
    expect(screen()).toMatch(new RegExp(`^${next} · `, 'm'));

    send('/video vidu-q2 a fox in tmux');
    await waitFor('the video URL', () => /✓ video vidu-q2 vt_\w+ completed/.test(screen()), 15_000);
    const url = flat(screen()).match(/https?:\/\/\S+\.mp4/)?.[0] ?? '';
    expect((await fetch(url)).status).toBe(200);

    send('/exit');
    await waitFor('the process to exit', () => {
      try {
        return readFileSync(exitFile, 'utf8').trim() !== '';
      } catch {
        return false;
      }
    });
    expect(readFileSync(exitFile, 'utf8').trim()).toBe('0');
    await waitFor('the tmux session to end', () => !sessionAlive(), 5_000);
  });

  it('--api responses: the screen streams two turns from /v1/responses, then /exit', async () => {
    assertBuilt();
    const gateway = inject('gateway');
    const prompt = 'Hello from the Responses API';
    const client = createClient({ baseUrl: gateway.url, apiKey: gateway.userKey });
    const reference = await client.responses.create({
      model: 'gpt-4o',
      input: prompt,
      store: false,
    });
    const expected = reference.output_text ?? '';
    rmSync(exitFile, { force: true });
    const command = [
      'env -u CI',
      shellQuote(process.execPath),
      shellQuote(CLI_PATH),
      '--base-url',
      shellQuote(gateway.url),
      '--api-key',
      shellQuote(gateway.userKey),
      '--model gpt-4o --api responses',
      `; echo $? > ${shellQuote(exitFile)}`,
    ].join(' ');
    tmux('new-session', '-d', '-s', session, '-x', '100', '-y', '40', command);
    await waitFor('the prompt', () => screen().includes('Type a message or /help'));
    send(prompt);
    await waitFor('the streamed answer', () => {
      const s = screen();
      return flat(s).includes(`› ${prompt} gpt-4o ${expected}`) && s.includes('Enter to send');
    });
    // The second turn continues the stored first one (previous_response_id) and is answered.
    send('And again');
    await waitFor('the second answer', () => (screen().match(/↳ \d+ tokens/g) ?? []).length === 2);
    expect(screen()).not.toMatch(/error|404/i);
    send('/exit');
    await waitFor('the process to exit', () => {
      try {
        return readFileSync(exitFile, 'utf8').trim() !== '';
      } catch {
        return false;
      }
    });
    expect(readFileSync(exitFile, 'utf8').trim()).toBe('0');
    await waitFor('the tmux session to end', () => !sessionAlive(), 5_000);
  });

  it('video --wait draws a progress bar; Ctrl+C asks, and "y" cancels the task', async () => {
    assertBuilt();
    const gateway = inject('gateway');
    const client = createClient({ baseUrl: gateway.url, apiKey: gateway.userKey });
    const videoExit = join(dir, 'video-exit-code');
    const command = [
      'env -u CI',
      `MODELGATE_BASE_URL=${shellQuote(gateway.url)}`,
      `MODELGATE_API_KEY=${shellQuote(gateway.userKey)}`,
      shellQuote(process.execPath),
      shellQuote(CLI_PATH),
      "video 'a cancelled comet' --model vidu-q2 --wait",
      `; echo $? > ${shellQuote(videoExit)}; sleep 30`,
    ].join(' ');
    tmux('new-session', '-d', '-s', session, '-x', '100', '-y', '20', command);
    await waitFor('the progress bar', () => /vidu-q2 vt_\w+ \[[█░]+\] \d+%/.test(screen()));
    const taskId = screen().match(/vt_\w+/)?.[0] ?? '';
    tmux('send-keys', '-t', session, 'C-c');
    await waitFor('the question', () =>
      screen().includes(`Cancel task ${taskId} on the gateway? [y/N]`),
    );
    send('y');
    await waitFor('the exit code', () => {
      try {
        return readFileSync(videoExit, 'utf8').trim() !== '';
      } catch {
        return false;
      }
    });
    expect(readFileSync(videoExit, 'utf8').trim()).toBe('130');
    expect(screen()).toMatch(new RegExp(`${taskId} {2}vidu-q2 {2}cancelled`));
    expect((await client.video.generations.retrieve(taskId)).status).toBe('cancelled');
    tmux('kill-session', '-t', session);
  });

  it('upload draws a progress bar on the terminal, then prints the URL', async () => {
    assertBuilt();
    const gateway = inject('gateway');
    const image = writePng(dir, 'big.png', 3_000_000);
    const uploadExit = join(dir, 'upload-exit-code');
    const command = [
      'env -u CI',
      `MODELGATE_BASE_URL=${shellQuote(gateway.url)}`,
      `MODELGATE_API_KEY=${shellQuote(gateway.userKey)}`,
      shellQuote(process.execPath),
      shellQuote(CLI_PATH),
      'upload',
      shellQuote(image),
      `; echo $? > ${shellQuote(uploadExit)}; sleep 30`,
    ].join(' ');
    tmux('new-session', '-d', '-s', session, '-x', '100', '-y', '20', command);
    await waitFor('the exit code', () => {
      try {
        return readFileSync(uploadExit, 'utf8').trim() !== '';
      } catch {
        return false;
      }
    });
    expect(readFileSync(uploadExit, 'utf8').trim()).toBe('0');
    expect(screen()).toMatch(
      /^upload big\.png \[█{20}\] 100%\nhttps?:\/\/\S+\/files\/file-\w+\.png$/m,
    );
    tmux('kill-session', '-t', session);
  });
});
