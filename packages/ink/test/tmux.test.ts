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

  it('chats with streaming, then /exit ends the process', async () => {
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
    tmux('send-keys', '-t', session, '-l', prompt);
    tmux('send-keys', '-t', session, 'Enter');
    await waitFor('the streamed answer', () => {
      const s = screen();
      return flat(s).includes(`› ${prompt} gpt-4o ${expected}`) && s.includes('Enter to send');
    });
    expect(screen()).toMatch(
      /gpt-4o · http:\/\/127\.0\.0\.1:\d+ · [1-9]\d* tokens · [\d.]+ credits/,
    );

    tmux('send-keys', '-t', session, '-l', '/exit');
    tmux('send-keys', '-t', session, 'Enter');
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
});
