/**
 * The customer's callback endpoint in the chaos run: a node:http server on 127.0.0.1 that answers
 * 500 to the first attempt of about 30 % of deliveries (picked by a hash of the webhook-id, so the
 * same delivery is failed on every instance that tries it), and dedupes by `webhook-id` as the
 * docs tell integrators to: a delivery seen again after a 2xx is answered 200 and not processed.
 */
import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ProcessedCallback {
  webhookId: string;
  taskId: string;
  type: string;
  status: string;
}

export interface CallbackReceiver {
  url: string;
  /** Every POST received (attempts, retries and duplicates included). */
  attempts: number;
  /** Attempts answered 500 on purpose. */
  failedOnPurpose: number;
  /** Attempts for a webhook-id already processed (answered 200, not processed again). */
  duplicates: number;
  /** One entry per distinct webhook-id processed, in arrival order. */
  processed: ProcessedCallback[];
  close(): Promise<void>;
}

/** True for about `share` of webhook-ids. */
function failsFirstAttempt(webhookId: string, share: number): boolean {
  return createHash('sha256').update(webhookId).digest()[0]! < 256 * share;
}

export async function startCallbackReceiver(failShare = 0.3): Promise<CallbackReceiver> {
  const seen = new Set<string>();
  const attemptsById = new Map<string, number>();
  const state: Omit<CallbackReceiver, 'url' | 'close'> = {
    attempts: 0,
    failedOnPurpose: 0,
    duplicates: 0,
    processed: [],
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      state.attempts++;
      const webhookId = String(req.headers['webhook-id'] ?? '');
      const attempt = (attemptsById.get(webhookId) ?? 0) + 1;
      attemptsById.set(webhookId, attempt);
      if (!webhookId) return void res.writeHead(400).end('no webhook-id');
      if (seen.has(webhookId)) {
        state.duplicates++;
        return void res.writeHead(200).end('duplicate');
      }
      if (attempt === 1 && failsFirstAttempt(webhookId, failShare)) {
        state.failedOnPurpose++;
        return void res.writeHead(500).end('try again');
      }
      const event = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
        type: string;
        data: { task_id: string; status: string };
      };
      seen.add(webhookId);
      state.processed.push({
        webhookId,
        taskId: event.data.task_id,
        type: event.type,
        status: event.data.status,
      });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(state, {
    url: `http://127.0.0.1:${port}/hooks/chaos`,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  });
}
