/**
 * Asks a provider which models its key can use: OpenAI `GET {baseUrl}/models` (all at once),
 * Anthropic `GET {baseUrl}/v1/models` (paged with `limit` / `after_id`). Only text models are
 * kept ({@link isTextModelId}).
 */
import { z } from 'zod';
import { ANTHROPIC_API_VERSION, type TextProviderSpec } from '../providers/text/index.js';

/** One model a provider lists. */
export interface UpstreamModel {
  id: string;
  ownedBy: string;
  /** Unix seconds. */
  created: number;
}

/** Why a list could not be had: `status` is the upstream's HTTP status, null when none came. */
export class ModelListError extends Error {
  constructor(
    readonly code: 'key_refused' | 'upstream_status' | 'unreachable' | 'bad_body',
    message: string,
    readonly status: number | null = null,
  ) {
    super(message);
    this.name = 'ModelListError';
  }
}

/**
 * Ids in OpenAI's list that are not chat/completions models (embeddings, speech, transcription,
 * images, video, moderation, realtime sessions, the base models of the legacy fine-tuning API).
 * Anything else is kept, so a new chat family needs no change here.
 */
const NOT_TEXT =
  /embedding|whisper|tts|dall-e|davinci-002|babbage|moderation|transcribe|realtime|audio|image|sora/i;

/**
 * Whether an OpenAI list id is a text model. A fine-tune (`ft:BASE:org:suffix:id`) is judged by
 * its base model, so a suffix the owner chose cannot hide or reveal it.
 *
 * @example
 * isTextModelId('gpt-4.1-2025-04-14'); // true
 * isTextModelId('text-embedding-3-small'); // false
 * isTextModelId('ft:gpt-4o-mini:acme:audio-bot:abc'); // true (judged by gpt-4o-mini)
 */
export function isTextModelId(id: string): boolean {
  const judged = id.startsWith('ft:') ? (id.split(':')[1] ?? '') : id;
  return !NOT_TEXT.test(judged);
}

const openAiList = z.object({
  data: z.array(
    z.object({ id: z.string(), owned_by: z.string().optional(), created: z.number().optional() }),
  ),
});

const anthropicPage = z.object({
  data: z.array(z.object({ id: z.string(), created_at: z.string().optional() })),
  has_more: z.boolean().optional(),
  last_id: z.string().nullable().optional(),
});

/** Enough pages for 20,000 models at the largest page size; stops a list that never ends. */
const MAX_ANTHROPIC_PAGES = 20;

/**
 * The provider's text models. Rejects with a {@link ModelListError}.
 *
 * @example
 * const models = await fetchUpstreamModels(spec, AbortSignal.timeout(5_000));
 * models.map((m) => m.id); // ['gpt-4o', 'gpt-4.1-2025-04-14', 'ft:gpt-4o-mini:acme::x1', …]
 */
export async function fetchUpstreamModels(
  spec: TextProviderSpec,
  signal: AbortSignal,
): Promise<UpstreamModel[]> {
  const base = spec.baseUrl.replace(/\/+$/, '');
  if (spec.kind === 'openai') {
    const body = await getJson(`${base}/models`, openAiHeaders(spec), signal);
    const list = parse(openAiList, body, spec.name);
    const now = Math.floor(Date.now() / 1000);
    return list.data
      .filter((m) => isTextModelId(m.id))
      .map((m) => ({ id: m.id, ownedBy: m.owned_by ?? spec.kind, created: m.created ?? now }));
  }
  const models: UpstreamModel[] = [];
  let after: string | null = null;
  for (let page = 0; page < MAX_ANTHROPIC_PAGES; page++) {
    const query = `limit=1000${after ? `&after_id=${encodeURIComponent(after)}` : ''}`;
    const body = await getJson(`${base}/v1/models?${query}`, anthropicHeaders(spec), signal);
    const { data, has_more, last_id } = parse(anthropicPage, body, spec.name);
    for (const m of data) {
      const created = m.created_at ? Date.parse(m.created_at) : Number.NaN;
      models.push({
        id: m.id,
        ownedBy: 'anthropic',
        created: Number.isFinite(created) ? Math.floor(created / 1000) : 0,
      });
    }
    if (!has_more || !last_id) break;
    after = last_id;
  }
  return models;
}

function openAiHeaders(spec: TextProviderSpec): Record<string, string> {
  return { ...spec.headers, authorization: `Bearer ${spec.apiKey}` };
}

function anthropicHeaders(spec: TextProviderSpec): Record<string, string> {
  return {
    'anthropic-version': ANTHROPIC_API_VERSION,
    ...spec.headers,
    'x-api-key': spec.apiKey,
  };
}

async function getJson(
  url: string,
  headers: Record<string, string>,
  signal: AbortSignal,
): Promise<unknown> {
  let res: Response;
  try {
    res = await fetch(url, { headers, signal });
  } catch (err) {
    const reason = signal.aborted ? 'no answer in time' : ((err as Error).cause ?? err);
    throw new ModelListError('unreachable', `GET ${url}: ${String(reason)}`);
  }
  if (!res.ok) {
    const text = (await res.text().catch(() => '')).slice(0, 200);
    const refused = res.status === 401 || res.status === 403;
    throw new ModelListError(
      refused ? 'key_refused' : 'upstream_status',
      refused
        ? `the provider refused the API key (${res.status}): ${text}`
        : `GET ${url} answered ${res.status}: ${text}`,
      res.status,
    );
  }
  try {
    return await res.json();
  } catch {
    const reason = signal.aborted ? 'no answer in time' : 'the body is not JSON';
    throw new ModelListError(signal.aborted ? 'unreachable' : 'bad_body', `GET ${url}: ${reason}`);
  }
}

function parse<T>(schema: z.ZodType<T>, body: unknown, provider: string): T {
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    throw new ModelListError(
      'bad_body',
      `${provider}: the model list is not in the expected shape`,
    );
  }
  return parsed.data;
}
