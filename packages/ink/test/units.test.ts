// Pure pieces: argument parsing, config precedence, slash commands, tail clipping.

import { AuthenticationError, ConnectionError } from '@modelgate/core';
import { describe, expect, it } from 'vitest';
import { parseCliArgs } from '../src/args.js';
import { loadConfig, selectProfile } from '../src/config.js';
import { configFilePath } from '../src/config-file.js';
import { describeError, formatError } from '../src/errors.js';
import { formatBalance, formatCreditsLeft } from '../src/format.js';
import { outputPaths } from '../src/image-files.js';
import { parseInputLine } from '../src/slash-commands.js';
import { lastParagraphBreak, splitMarkdown } from '../src/ui/markdown.js';
import { fitStatusLine } from '../src/ui/status-text.js';
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
    // The prompt as typed, inner spacing kept.
    expect(parseInputLine('/image  a red  fox ')).toEqual({ kind: 'image', prompt: 'a red  fox' });
    expect(parseInputLine('/image')).toEqual({
      kind: 'invalid',
      message: 'usage: /image <prompt>',
    });
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

describe('tailThatFits', () => {
  it('keeps the end that fits the rows, marking the cut', () => {
    expect(tailThatFits('a\nb\nc', 80, 2)).toBe('…b\nc');
    expect(tailThatFits('a\nb', 80, 5)).toBe('a\nb');
    expect(tailThatFits('x'.repeat(30), 10, 2)).toBe(`…${'x'.repeat(19)}`);
    expect(tailThatFits('anything', 10, Number.POSITIVE_INFINITY)).toBe('anything');
  });
});

describe('profiles in the precedence', () => {
  it('flags > env > profile > defaults, per setting', () => {
    const profile = {
      baseUrl: 'http://profile/',
      apiKey: 'sk-profile',
      model: 'profile-model',
      adminKey: 'sk-admin',
    };
    expect(loadConfig({}, {}, profile)).toEqual({
      baseUrl: 'http://profile',
      apiKey: 'sk-profile',
      adminKey: 'sk-admin',
      model: 'profile-model',
    });
    expect(
      loadConfig(
        { model: 'flag-model' },
        { MODELGATE_MODEL: 'env-model', MODELGATE_API_KEY: 'sk-env' },
        profile,
      ),
    ).toMatchObject({ baseUrl: 'http://profile', apiKey: 'sk-env', model: 'flag-model' });
  });

  it('selects --profile, then MODELGATE_PROFILE, then the current one', () => {
    const file = { current: 'a', profiles: { a: { model: 'ma' }, b: { model: 'mb' } } };
    expect(selectProfile({}, {}, file)).toEqual({ ok: true, name: 'a', profile: { model: 'ma' } });
    expect(selectProfile({}, { MODELGATE_PROFILE: 'b' }, file)).toMatchObject({ name: 'b' });
    expect(selectProfile({ profile: 'a' }, { MODELGATE_PROFILE: 'b' }, file)).toMatchObject({
      name: 'a',
    });
    expect(selectProfile({ profile: 'c' }, {}, file)).toMatchObject({ ok: false });
    // A current profile that was deleted from the file is no error: no profile then.
    expect(selectProfile({}, {}, { current: 'gone', profiles: {} })).toEqual({
      ok: true,
      name: undefined,
      profile: {},
    });
  });

  it('finds the file under XDG_CONFIG_HOME, else ~/.config', () => {
    expect(configFilePath({ XDG_CONFIG_HOME: '/x' })).toBe('/x/modelgate/config.json');
    expect(configFilePath({ HOME: '/home/u' })).toBe('/home/u/.config/modelgate/config.json');
  });
});

describe('parseCliArgs (one-shot commands)', () => {
  it('parses video, upload, token and config commands', () => {
    expect(
      parseCliArgs(['video', 'a', 'fox', '-m', 'vidu-q2', '--duration', '4', '--wait']),
    ).toMatchObject({
      command: { name: 'video', prompt: 'a fox', model: 'vidu-q2', duration: 4, wait: true },
    });
    expect(parseCliArgs(['video', 'status', 'vt_1'])).toMatchObject({
      command: { name: 'video-status', taskId: 'vt_1' },
    });
    expect(parseCliArgs(['video', 'list', '--limit', 'x'])).toMatchObject({ ok: false });
    expect(parseCliArgs(['token', 'create', '--name', 'n', '--quota', '1.5'])).toMatchObject({
      command: { name: 'token-create', tokenName: 'n', quota: 1_500_000 },
    });
    expect(parseCliArgs(['token', 'create', '--name', 'n', '--quota', '-1'])).toMatchObject({
      ok: false,
    });
    expect(parseCliArgs(['config', 'set', 'baseUrl', 'http://x'])).toMatchObject({
      command: { name: 'config-set', key: 'baseUrl', value: 'http://x' },
    });
    expect(parseCliArgs(['config', 'set', 'colour', 'red'])).toMatchObject({ ok: false });
    expect(parseCliArgs(['upload'])).toMatchObject({ ok: false });
  });

  it('parses image: the prompt, the model only from --model, sizes and qualities the spec has', () => {
    const parsed = parseCliArgs([
      'image',
      'a',
      'fox',
      '--size',
      '1792x1024',
      '--quality',
      'hd',
      '--n',
      '2',
      '--out',
      'f.png',
    ]);
    expect(parsed).toMatchObject({
      ok: true,
      command: {
        name: 'image',
        prompt: 'a fox',
        size: '1792x1024',
        quality: 'hd',
        n: 2,
        out: 'f.png',
      },
    });
    // MODELGATE_MODEL is the chat model: it never becomes the image model.
    expect(parsed.ok && parsed.command).not.toHaveProperty('model');
    expect(parseCliArgs(['image', 'x', '-m', 'dall-e-2'])).toMatchObject({
      command: { name: 'image', model: 'dall-e-2' },
    });
    expect(parseCliArgs(['image', 'x', '--n', '1.5'])).toMatchObject({ ok: false });
    expect(parseCliArgs(['image', 'x', '--size', '100x100'])).toMatchObject({ ok: false });
    expect(parseCliArgs(['image', 'x', '--out', ' '])).toMatchObject({ ok: false });
  });
});

describe('outputPaths', () => {
  it('is the name itself for one image, numbered before the extension for more', () => {
    expect(outputPaths('out/fox.png', 1)).toEqual(['out/fox.png']);
    expect(outputPaths('out/fox.png', 3)).toEqual([
      'out/fox-1.png',
      'out/fox-2.png',
      'out/fox-3.png',
    ]);
    expect(outputPaths('fox', 2)).toEqual(['fox-1', 'fox-2']);
    expect(outputPaths('.hidden', 2)).toEqual(['.hidden-1', '.hidden-2']);
  });
});

describe('splitMarkdown / lastParagraphBreak', () => {
  it('separates fenced code from prose, an unclosed fence running to the end', () => {
    expect(splitMarkdown('Run:\n```sh\nls\n\npwd\n```\nDone.')).toEqual([
      { kind: 'text', text: 'Run:' },
      { kind: 'code', language: 'sh', code: 'ls\n\npwd' },
      { kind: 'text', text: 'Done.' },
    ]);
    expect(splitMarkdown('```\nstill going')).toEqual([
      { kind: 'code', language: '', code: 'still going' },
    ]);
  });

  it('never finds a paragraph break inside an open fence', () => {
    expect(lastParagraphBreak('a\n\nb')).toBe(1);
    expect(lastParagraphBreak('a\n\n```\nx\n\ny')).toBe(1);
    expect(lastParagraphBreak('```\nx\n\ny\n```\n\nz')).toBe(12);
    expect(lastParagraphBreak('a\nb')).toBe(-1);
  });
});

describe('fitStatusLine', () => {
  const parts = {
    model: 'claude-sonnet-4-5',
    baseUrl: 'https://gateway.internal.example.com:8443',
    tokens: '12,345 tokens',
    credits: '99.999865 credits',
    hint: 'Enter to send · /help',
  };
  it('keeps everything when it fits, drops the address, then tokens, then the hint', () => {
    const wide = fitStatusLine(parts, 120);
    expect(wide.left).toBe(
      'claude-sonnet-4-5 · gateway.internal.example.com:8443 · 12,345 tokens · 99.999865 credits',
    );
    for (const columns of [80, 60, 40, 30, 10]) {
      const { left, right } = fitStatusLine(parts, columns);
      expect(left.length + (right ? right.length + 1 : 0)).toBeLessThanOrEqual(columns);
    }
    expect(fitStatusLine(parts, 80)).toEqual({
      left: 'claude-sonnet-4-5 · 12,345 tokens · 99.999865 credits',
      right: 'Enter to send · /help',
    });
    expect(fitStatusLine(parts, 40)).toEqual({
      left: 'claude-sonnet-4-5 · 99.999865 credits',
      right: '',
    });
  });
});

describe('formatBalance', () => {
  it('says unlimited for a key without a grant', () => {
    const summary = {
      object: 'credit_summary' as const,
      total_granted: 0.5,
      total_used: 0.5,
      total_available: 0,
      budgets: { key: null, team: null },
      grants: { object: 'list' as const, data: [] },
    };
    expect(formatBalance(summary)).toBe('unlimited credits (0.5 used)');
    expect(formatCreditsLeft(summary)).toBe('unlimited');
  });
});
