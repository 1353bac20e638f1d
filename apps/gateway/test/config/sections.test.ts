// The one rule of configuration: every section is read through its schema at start, and a bad
// value stops the start with a ConfigError naming the variable (or YAML path) and what it takes.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/config.js';

function refusal(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error(`loadConfig accepted ${JSON.stringify(env)}`);
}

describe('a bad value stops the start, naming the variable and what it takes', () => {
  it.each([
    [
      { MODELGATE_VIDEO_POLL_INTERVAL_MS: 'abc' },
      'MODELGATE_VIDEO_POLL_INTERVAL_MS must be a whole number of at least 1 (got "abc")',
    ],
    [
      { MODELGATE_VIDEO_MAX_IN_FLIGHT: '0' },
      'MODELGATE_VIDEO_MAX_IN_FLIGHT must be at least 1 (got "0")',
    ],
    [
      { MODELGATE_CALLBACK_TIMEOUT: 'soon' },
      'MODELGATE_CALLBACK_TIMEOUT must be a duration (e.g. 500ms, 5s, 30m, 2h) (got "soon")',
    ],
    [
      { MODELGATE_CALLBACK_RETRY_SCHEDULE: '5s,later' },
      'MODELGATE_CALLBACK_RETRY_SCHEDULE must be a duration',
    ],
    [
      { MODELGATE_CALLBACK_ALLOW_PRIVATE: 'yes' },
      'MODELGATE_CALLBACK_ALLOW_PRIVATE must be 1/true or 0/false (got "yes")',
    ],
    [{ MODELGATE_S3_PRESIGN: 'on' }, 'MODELGATE_S3_PRESIGN must be 1/true or 0/false (got "on")'],
    [
      { MODELGATE_DRAIN_TIMEOUT_MS: '30s' },
      'MODELGATE_DRAIN_TIMEOUT_MS must be a whole number (got "30s")',
    ],
    [
      { MODELGATE_BUDGET_TIME_ZONE: 'Mars/Olympus_Mons' },
      'MODELGATE_BUDGET_TIME_ZONE must be an IANA time zone such as Europe/Paris (got "Mars/Olympus_Mons")',
    ],
    [
      { MODELGATE_BUDGET_ALERT_URL: 'ops.example.com/budget' },
      'MODELGATE_BUDGET_ALERT_URL must be an http(s) URL',
    ],
    [
      { MODELGATE_BUDGET_ALERT_SECRET: 'hunter2' },
      'MODELGATE_BUDGET_ALERT_SECRET must be a Standard Webhooks secret: whsec_ + base64',
    ],
    [{ PORT: '70000' }, 'PORT must be at most 65535 (got "70000")'],
    [{ CDN_URL: 'ftp://cdn.example.com' }, 'CDN_URL must be a http:// or https:// URL'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL must be one of debug, info, warn, error (got "loud")'],
    [
      { MODELGATE_CORS_ORIGINS: 'app.example.com' },
      'MODELGATE_CORS_ORIGINS must be * or bare origins',
    ],
    [
      { MODELGATE_MAX_UPLOAD_BYTES: '-1' },
      'MODELGATE_MAX_UPLOAD_BYTES must be a whole number of at least 1',
    ],
  ])('%j', (env, message) => {
    expect(refusal(env)).toContain(message);
  });

  it('does not repeat a credential-bearing value into the message', () => {
    const message = refusal({ DATABASE_URL: 'mysql://root:hunter2@db/x' });
    expect(message).toBe('DATABASE_URL must be a postgres:// or postgresql:// URL');
    expect(refusal({ REDIS_URL: 'http://user:hunter2@redis' })).not.toContain('hunter2');
    expect(refusal({ MODELGATE_BUDGET_ALERT_SECRET: 'hunter2' })).not.toContain('hunter2');
  });

  it('treats an empty variable as unset', () => {
    const config = loadConfig({
      PORT: '',
      MODELGATE_VIDEO_LEASE_MS: '',
      MODELGATE_CALLBACK_ALLOW_PRIVATE: '',
    });
    expect(config.port).toBe(8080);
    expect(config.video.leaseMs).toBe(120_000);
    expect(config.callbacks.allowPrivate).toBe(false);
  });

  it('reads the budget alert URL and secret, both unset by default', () => {
    expect(loadConfig({}).budgets).toMatchObject({ alertUrl: null, alertSecret: null });
    const config = loadConfig({
      MODELGATE_BUDGET_ALERT_URL: 'https://ops.example.com/budget',
      MODELGATE_BUDGET_ALERT_SECRET: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    });
    expect(config.budgets).toMatchObject({
      alertUrl: 'https://ops.example.com/budget',
      alertSecret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    });
  });

  it('names the YAML path of a bad file value, and lets a variable win over the file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mg-config-'));
    const write = (name: string, text: string) => {
      const path = join(dir, name);
      writeFileSync(path, text);
      return path;
    };
    const bad = write('bad.yaml', 'video:\n  poll_interval_ms: often\n');
    expect(refusal({ MODELGATE_CONFIG: bad })).toMatch(
      /^MODELGATE_CONFIG: video\.poll_interval_ms: /,
    );
    const good = write('good.yaml', 'video:\n  poll_interval_ms: 900\ncallbacks:\n  timeout: 2s\n');
    const config = loadConfig({ MODELGATE_CONFIG: good, MODELGATE_CALLBACK_TIMEOUT: '3s' });
    expect(config.video.pollIntervalMs).toBe(900);
    expect(config.callbacks.timeoutMs).toBe(3_000);
  });
});
