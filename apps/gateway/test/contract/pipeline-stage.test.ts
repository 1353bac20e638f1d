/**
 * One stage added to the pipeline's list reaches every operation of spec/openapi.yaml, the text
 * routes (served by the text edge) included: its header is on every answer, and its refusal is
 * every operation's answer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forbidden } from '../../src/errors/api-error.js';
import type { Stage } from '../../src/index.js';
import { startTestGateway, type TestGateway } from '../support/index.js';
import { SAMPLES } from './samples.js';

const REFUSE = 'x-test-refuse';

/** Marks every answer with the path it saw, and refuses a request that asks for it. */
const markingStage: Stage = {
  name: 'test-mark',
  scope: 'api',
  enter(x) {
    x.headers['x-test-stage'] = `${x.method} ${x.path}`;
    if (x.header(REFUSE) === 'yes') {
      throw forbidden('Refused by the test stage.', 'refused_by_test_stage');
    }
    return undefined;
  },
};

/** Counts what it sees on every path, /healthz included, from its `leave`. */
const seen: string[] = [];
const everyStage: Stage = {
  name: 'test-every',
  scope: 'every',
  leave(x) {
    seen.push(`${x.status} ${x.method} ${x.path}`);
  },
};

describe('a stage added to the pipeline', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway({ stages: (stages) => [...stages, markingStage, everyStage] });
  });
  afterAll(() => gw?.close());

  const send = (op: string, headers: Record<string, string> = {}) => {
    const s = SAMPLES[op]!;
    return gw.fetch(s.path, { method: s.method, json: s.json, key: gw.adminKey, headers });
  };

  it.each(Object.keys(SAMPLES))('%s: carries its header', async (op) => {
    const res = await send(op);
    await res.arrayBuffer();
    const { method, path } = SAMPLES[op]!;
    expect(res.headers.get('x-test-stage')).toBe(`${method} ${path}`);
    expect(res.headers.get('x-request-id')).toBeTruthy();
  });

  it.each(Object.keys(SAMPLES))('%s: answers its refusal, before the route runs', async (op) => {
    const res = await send(op, { [REFUSE]: 'yes' });
    const body = await res.text();
    expect(res.status).toBe(403);
    expect(body).toContain('Refused by the test stage.');
    expect(res.headers.get('x-test-stage')).toBe(`${SAMPLES[op]!.method} ${SAMPLES[op]!.path}`);
  });

  it('an `api` stage stays off /healthz; an `every` stage reaches it and sees the status', async () => {
    const res = await gw.fetch('/healthz');
    expect(res.status).toBe(200);
    expect(res.headers.get('x-test-stage')).toBeNull();
    expect(seen).toContain('200 GET /healthz');
    expect(seen).toContain('200 POST /v1/chat/completions');
  });
});
