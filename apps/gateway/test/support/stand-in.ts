/**
 * A stand-in upstream for tests that need to see or shape what a provider gets: a loopback HTTP
 * server that reads each request's body whole and hands it to the test's answer. A recorder also
 * keeps every request it was sent, raw bytes and parsed body.
 */
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import type { UsageRecord } from '@modelgate/core';
import { expect, vi } from 'vitest';
import type { Config } from '../../src/config/config.js';
import { startTestGateway, type TestGateway } from './gateway.js';

export interface StandIn {
  /** `http://127.0.0.1:{port}`: the base URL of an Anthropic provider (OpenAI's adds `/v1`). */
  url: string;
  close(): Promise<void>;
}

/** Writes the answer to one request, given its whole body as text. */
export type StandInAnswer = (
  req: IncomingMessage,
  raw: string,
  res: ServerResponse,
) => void | Promise<void>;

/**
 * Starts a stand-in on a free loopback port.
 *
 * @example
 * const up = await startStandIn((req, raw, res) => answerJson(res, 200, { input_tokens: 7 }));
 */
export async function startStandIn(answer: StandInAnswer): Promise<StandIn> {
  const server = createServer(async (req, res) => {
    let raw = '';
    for await (const part of req) raw += part;
    await answer(req, raw, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Sends `body` as JSON with `status`. */
export function answerJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

/** The Anthropic message a recorder answers with: "Recorded.", with the given usage. */
export function recordedMessage(usage: Record<string, number>) {
  return {
    id: 'msg_rec',
    type: 'message',
    role: 'assistant',
    model: 'rec',
    content: [{ type: 'text', text: 'Recorded.' }],
    stop_reason: 'end_turn',
    stop_sequence: null,
    usage,
  };
}

/** One request a recorder was sent. */
export interface Recorded {
  path: string;
  headers: IncomingHttpHeaders;
  raw: string;
  body: Record<string, unknown>;
}

export interface Recorder extends StandIn {
  seen: Recorded[];
  /** The request sent last. */
  last(): Recorded;
}

/** A stand-in that records each request (its body parsed as JSON) before `answer` writes to it. */
export async function startRecorder(
  answer: (recorded: Recorded, res: ServerResponse) => void,
): Promise<Recorder> {
  const seen: Recorded[] = [];
  const standIn = await startStandIn((req, raw, res) => {
    const recorded = { path: req.url ?? '', headers: req.headers, raw, body: JSON.parse(raw) };
    seen.push(recorded);
    answer(recorded, res);
  });
  return { ...standIn, seen, last: () => seen[seen.length - 1]! };
}

/**
 * A gateway whose upstreams are the stand-ins its configuration file names (no simulator, not in
 * demo mode), and a key of it.
 *
 * @example
 * const { gw, key } = await startGatewayOnStandIns({ providers: { up: { kind: 'anthropic', base_url: up.url, api_key: 'sk' } }, models });
 */
export async function startGatewayOnStandIns(
  file: Config['file'],
): Promise<{ gw: TestGateway; key: string }> {
  const gw = await startTestGateway({ simulator: false, config: { demoMode: false, file } });
  return { gw, key: (await gw.createKey()).key };
}

/** The usage record of a request, once the gateway has written it (settling is asynchronous). */
export function usageRecordOf(gw: TestGateway, requestId: string): Promise<UsageRecord> {
  return vi.waitFor(
    async () => {
      const res = await gw.fetch(`/v1/usage/records?request_id=${requestId}`, {
        key: gw.adminKey,
      });
      const page = (await res.json()) as { data: UsageRecord[] };
      expect(page.data).toHaveLength(1);
      return page.data[0]!;
    },
    { timeout: 5_000, interval: 20 },
  );
}
