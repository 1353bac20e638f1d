// Pure pieces: argument parsing, config precedence, slash commands, token batching, tail clipping.

import { AuthenticationError, ConnectionError } from '@modelgate/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseCliArgs } from '../src/args.js';
import { loadConfig } from '../src/config.js';
import { describeError, formatError } from '../src/errors.js';
import { parseInputLine } from '../src/slash-commands.js';
import { createTokenBatcher } from '../src/token-batcher.js';
import { tailThatFits } from '../src/ui/tail.js';

describe('parseCliArgs + loadConfig', () => {
  it('parses commands and flags; flags beat the environment, which beats defaults', () => {
    const parsed = parseCliArgs(['chat', 'say', 'hi', '-m', 'gpt-4o', '--base-url', 'http://x/']);
    expect(parsed).toMatchObject({ ok: true, command: { name: 'chat', prompt: 'say hi' } });
    if (!parsed.ok) throw new Error('unreachable');
    const env = { MODELGATE_MODEL: 'env-model', MODELGATE_API_KEY: 'sk-env' };
    expect(loadConfig(parsed.flags, env)).toEqual({
      baseUrl: 'http://x',
      apiKey: 'sk-env',
      model: 'gpt-4o',
    });
    expect(loadConfig({}, { MODELGATE_MODEL: ' ' })).toEqual({
      baseUrl: 'http://localhost:8080',
      apiKey: undefined,
      model: 'gpt-4o-mini',
    });
    expect(parseCliArgs([])).toMatchObject({ ok: true, command: { name: 'interactive' } });
    expect(parseCliArgs(['chat', '-'])).toMatchObject({ command: { prompt: '-' } });
    expect(parseCliArgs(['models', 'extra'])).toMatchObject({ ok: false });
    expect(parseCliArgs(['--nope'])).toMatchObject({ ok: false });
  });
});

describe('parseInputLine', () => {
  it('tells prompts from slash commands', () => {
    expect(parseInputLine('  hello  ')).toEqual({ kind: 'prompt', text: 'hello' });
    expect(parseInputLine('')).toBeUndefined();
    expect(parseInputLine('/model gpt-4o')).toEqual({ kind: 'model', id: 'gpt-4o' });
    expect(parseInputLine('/model')).toEqual({ kind: 'model', id: undefined });
    expect(parseInputLine('/video vidu-q2 a red  fox')).toEqual({
      kind: 'video',
      model: 'vidu-q2',
      prompt: 'a red fox',
    });
    expect(parseInputLine('/video vidu-q2')).toMatchObject({ kind: 'invalid' });
    expect(parseInputLine('/EXIT')).toEqual({ kind: 'exit' });
    expect(parseInputLine('/what')).toMatchObject({ kind: 'invalid' });
  });
});

describe('errors', () => {
  it('keeps status, code and message', () => {
    const auth = new AuthenticationError('Invalid API key.', {
      status: 401,
      code: 'invalid_api_key',
    });
    expect(formatError(describeError(auth))).toBe('401 invalid_api_key: Invalid API key.');
    const conn = new ConnectionError('Connection failed');
    expect(formatError(describeError(conn))).toBe('connection_error: Connection failed');
    expect(describeError('boom')).toEqual({ status: undefined, code: 'error', message: 'boom' });
  });
});

describe('createTokenBatcher', () => {
  afterEach(() => vi.useRealTimers());

  it('hands over many tokens as one update per interval, and the rest on flush', () => {
    vi.useFakeTimers();
    const updates: string[] = [];
    const batcher = createTokenBatcher((text) => updates.push(text), 40);
    for (const piece of ['a', 'b', 'c']) batcher.push(piece);
    expect(updates).toEqual([]);
    vi.advanceTimersByTime(40);
    expect(updates).toEqual(['abc']);
    batcher.push('d');
    batcher.flush();
    batcher.flush();
    expect(updates).toEqual(['abc', 'abcd']);
    batcher.push('e');
    batcher.cancel();
    vi.advanceTimersByTime(100);
    expect(updates).toEqual(['abc', 'abcd']);
  });
});

describe('tailThatFits', () => {
  it('keeps the end that fits the rows, marking the cut', () => {
    expect(tailThatFits('a\nb\nc', 80, 2)).toBe('…b\nc');
    expect(tailThatFits('a\nb', 80, 5)).toBe('a\nb');
    expect(tailThatFits('x'.repeat(30), 10, 2)).toBe(`…${'x'.repeat(19)}`);
    expect(tailThatFits('anything', 10, Number.POSITIVE_INFINITY)).toBe('anything');
  });
});
