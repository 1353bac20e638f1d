/**
 * The chaos run's client side: the operations of a steady mixed load (plain and streamed chats,
 * uploads used and served through another instance, video submissions with a callback URL), each
 * recorded as an Exchange.
 */
import type { Instance } from './cluster.js';
import { type Exchange, exchange, type Outcome } from './outcomes.js';

/** A valid 1×1 PNG. */
const PNG_1X1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

/** No request may take longer than this: past it the client gives up and the run fails. */
const CLIENT_TIMEOUT_MS = 30_000;

export interface LoadContext {
  /** Instances a load balancer would route to now (the live ones). */
  pick(): Instance;
  /** Another live instance than `not`, when there is one. */
  pickOther(not: Instance): Instance;
  callbackUrl: string;
  record(exchange: Exchange): void;
  /** Every task id the gateway accepted (for the end-of-run checks). */
  tasks: Set<string>;
}

async function send(
  instance: Instance,
  path: string,
  key: string,
  init: { method?: string; json?: unknown; form?: FormData },
): Promise<{ status: number; body: string; headers: Headers }> {
  const headers: Record<string, string> = { authorization: `Bearer ${key}` };
  if (init.json !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${instance.url}${path}`, {
    method: init.method ?? (init.json !== undefined || init.form ? 'POST' : 'GET'),
    headers,
    body: init.form ?? (init.json === undefined ? undefined : JSON.stringify(init.json)),
    signal: AbortSignal.timeout(CLIENT_TIMEOUT_MS),
  });
  return { status: res.status, body: await res.text(), headers: res.headers };
}

/** One chat, plain or streamed; returns whether it was accepted (2xx). */
export async function chat(
  ctx: LoadContext,
  key: string,
  options: { stream: boolean; model: string; op: string; seq: number },
): Promise<Exchange> {
  const instance = ctx.pick();
  const result = await exchange(options.op, instance, async () => ({
    ...(await send(instance, '/v1/chat/completions', key, {
      json: {
        model: options.model,
        messages: [{ role: 'user', content: `chaos ${options.seq}` }],
        max_tokens: 24,
        stream: options.stream,
      },
    })),
    streamed: options.stream,
  }));
  ctx.record(result);
  return result;
}

/** Uploads through one instance, reads it and fetches its bytes through another. */
export async function uploadAndServe(ctx: LoadContext, key: string): Promise<string | null> {
  const first = ctx.pick();
  const form = new FormData();
  form.set('purpose', 'image');
  form.set('file', new Blob([PNG_1X1], { type: 'image/png' }), 'frame.png');
  const upload = await exchange('file upload', first, () =>
    send(first, '/v1/files', key, { form }),
  );
  ctx.record(upload);
  if (upload.status !== 200) return null;
  const file = JSON.parse(upload.body) as { id: string; url: string };
  const second = ctx.pickOther(first);
  ctx.record(
    await exchange('file read (other instance)', second, () =>
      send(second, `/v1/files/${file.id}`, key, {}),
    ),
  );
  const path = new URL(file.url).pathname;
  ctx.record(
    await exchange('file bytes via CDN (other instance)', second, async () => {
      const res = await fetch(`${second.cdnUrl}${path}`, {
        signal: AbortSignal.timeout(CLIENT_TIMEOUT_MS),
      });
      const bytes = Buffer.from(await res.arrayBuffer());
      return { status: res.status, body: '', outcome: judgeCdn(res, bytes) };
    }),
  );
  return file.url;
}

/**
 * The CDN listener answers in plain text: a 200 must carry exactly the uploaded bytes, and a 503
 * with Retry-After (its database unreachable for a moment) is its documented retryable answer.
 * Anything else — a 404 for a file just uploaded, above all — is a lost or corrupted file.
 */
function judgeCdn(res: Response, bytes: Buffer): Outcome {
  if (res.status === 200) return bytes.equals(PNG_1X1) ? 'ok' : 'unexplained';
  if (res.status === 503 && res.headers.get('retry-after')) return 'typed-error';
  return 'unexplained';
}

/** Submits a video task with the callback URL (and an uploaded first frame when given). */
export async function submitVideo(
  ctx: LoadContext,
  key: string,
  model: string,
  imageUrl: string | null,
  seq: number,
): Promise<void> {
  const instance = ctx.pick();
  const result = await exchange(imageUrl ? 'video submit (image)' : 'video submit', instance, () =>
    send(instance, '/v1/video/generations', key, {
      json: {
        model,
        prompt: `chaos video ${seq}`,
        callback_url: ctx.callbackUrl,
        ...(imageUrl ? { image_url: imageUrl } : {}),
      },
    }),
  );
  ctx.record(result);
  if (result.status === 200)
    ctx.tasks.add((JSON.parse(result.body) as { task_id: string }).task_id);
}
