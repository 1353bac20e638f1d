/**
 * The gateway's start on an end-of-life Node: one warning line naming the version, the date and
 * what to run instead. The child-process test runs on whichever Node runs the suite (the test
 * command runs it on Node 20, which warns, and on Node 24, which does not).
 */

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  endOfLifeMessage,
  endOfLifeNode,
  NODE_END_OF_LIFE,
} from '../../src/observability/node-end-of-life.js';
import { buildGatewayMain, freePort, startChildGateway } from '../support/child-gateway.js';

describe('endOfLifeNode', () => {
  it('Node 20 is supported through 2026-04-30 and past end of life the day after', () => {
    expect(endOfLifeNode('v20.20.2', new Date('2026-04-30T23:59:59Z'))).toBeNull();
    expect(endOfLifeNode('v20.20.2', new Date('2026-05-01T00:00:00Z'))).toEqual({
      version: 'v20.20.2',
      major: 20,
      endOfLife: '2026-04-30',
    });
  });

  it('Node 22 and 24 are not past end of life today; 24 not until May 2028', () => {
    const today = new Date('2026-11-28T00:00:00Z');
    expect(endOfLifeNode('v22.23.3', today)).toBeNull();
    expect(endOfLifeNode('v24.21.0', today)).toBeNull();
    expect(endOfLifeNode('v24.21.0', new Date('2028-05-01T00:00:00Z'))?.endOfLife).toBe(
      '2028-04-30',
    );
  });

  it('an odd line ends six months after its release; 25 is past end of life', () => {
    expect(endOfLifeNode('v25.9.0', new Date('2026-11-28T00:00:00Z'))?.endOfLife).toBe(
      '2026-06-01',
    );
  });

  it('a line older than the table is past end of life; a newer one is not judged', () => {
    expect(endOfLifeNode('v16.20.2', new Date('2026-11-28T00:00:00Z'))?.major).toBe(16);
    expect(endOfLifeNode('v27.0.0', new Date('2030-01-01T00:00:00Z'))).toBeNull();
    expect(endOfLifeNode('not a version')).toBeNull();
  });

  it('the message names the version, the date and what to run instead', () => {
    expect(endOfLifeMessage({ version: 'v20.20.2', major: 20, endOfLife: '2026-04-30' })).toBe(
      'Node v20.20.2 is past end of life since 2026-04-30 (no more security fixes): run the gateway on Node 24 LTS (or 22)',
    );
  });

  it('every even line in the table lives 30 months, every odd line 6 past its release', () => {
    for (const [major, day] of Object.entries(NODE_END_OF_LIFE)) {
      expect(day).toMatch(Number(major) % 2 === 0 ? /-04-30$/ : /-06-01$/);
    }
  });
});

describe('the started gateway', () => {
  let cleanup: (() => Promise<void>) | undefined;
  afterAll(async () => {
    await cleanup?.();
  });

  it(`logs the end-of-life warning only on an end-of-life Node (this one: ${process.version})`, {
    timeout: 90_000,
  }, async () => {
    const built = await buildGatewayMain();
    cleanup = built.cleanup;
    const dataDir = await mkdtemp(join(tmpdir(), 'mg-eol-'));
    const gateway = await startChildGateway(built.main, {
      PORT: String(await freePort()),
      CDN_PORT: String(await freePort()),
      MODELGATE_DATA_DIR: dataDir,
    });
    try {
      // Read once it has exited: the logger writes its lines in batches.
      gateway.process.kill('SIGTERM');
      expect((await gateway.exited).code).toBe(0);
      const lines = gateway.output
        .join('')
        .split('\n')
        .filter((line) => line.includes('past end of life'));
      const expected = endOfLifeNode();
      if (expected) {
        expect(lines).toHaveLength(1);
        const entry = JSON.parse(lines[0] as string);
        expect(entry).toMatchObject({
          level: 'warn',
          msg: endOfLifeMessage(expected),
          node: process.version,
          end_of_life: expected.endOfLife,
        });
      } else {
        expect(lines).toEqual([]);
      }
    } finally {
      gateway.process.kill('SIGKILL');
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
