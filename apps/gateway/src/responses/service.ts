/**
 * The Responses API on the text path. A create call is translated to the chat format (the pivot,
 * translate/responses/) and served by the text service — model resolution, the quota hold,
 * limits, failover, logs and metrics are the chat path's — then its answer is translated back.
 * The gateway keeps each stored response itself (store.ts), so `previous_response_id`, retrieve,
 * delete and input items work on any model.
 */
import type {
  CompactedResponse,
  CreateResponseRequest,
  DeletedResponse,
  Response as ModelResponse,
  ResponseInputItem,
  ResponseInputItemList,
  ResponseInputTokens,
  ResponseOutputItem,
} from '@modelgate/core';
import { notFound } from '../errors/api-error.js';
import type { AuthKey } from '../keys/keys.js';
import type { Logger } from '../observability/logger.js';
import type { TextAnswer, TextRequestContext, TextService } from '../text/service.js';
import { countInputTokens } from '../text/tokens.js';
import { DROPPED_PARAMS_HEADER, droppedParamsValue } from '../translate/dropped.js';
import { type ChatPivot, inputItems, toChat } from '../translate/responses/request.js';
import {
  type ChatCompletionLike,
  fromChat,
  responseShell,
  responsesId,
  toolNaming,
  usageOf,
} from '../translate/responses/response.js';
import { ResponsesStreamSink } from '../translate/responses/stream.js';
import { NativeResponsesSink, outputText } from './native-sink.js';
import type { ResponseStore, StoredResponse } from './store.js';

export interface ResponsesService {
  create(body: CreateResponseRequest, ctx: TextRequestContext): Promise<TextAnswer>;
  retrieve(key: AuthKey, id: string): Promise<ModelResponse>;
  remove(key: AuthKey, id: string): Promise<DeletedResponse>;
  inputItems(key: AuthKey, id: string): Promise<ResponseInputItemList>;
  inputTokens(key: AuthKey, body: CreateResponseRequest): Promise<ResponseInputTokens>;
  compact(body: CreateResponseRequest, ctx: TextRequestContext): Promise<CompactedResponse>;
}

const missing = (id: string) =>
  notFound(`No response found with id '${id}'.`, 'response_not_found', 'response_id');

/** An output item as the next turn's input item (the same fields, re-typed for the input side). */
function asInput(item: ResponseOutputItem): ResponseInputItem {
  if (item.type === 'message')
    return {
      type: 'message',
      role: 'assistant',
      content: (item.content ?? []).map((p) => ({
        type: 'output_text',
        text: typeof p.text === 'string' ? p.text : '',
      })),
    };
  const { content: _, summary: __, role: ___, ...rest } = item;
  return rest;
}

/** The summary prompt of a compaction: what the next turns need, in the model's own words. */
const COMPACT_INSTRUCTIONS =
  'Summarise the conversation so far for your own later use: the goal, decisions, facts learned, ' +
  'tool results that matter and what remains to do. Be complete but brief.';

export function createResponsesService(deps: {
  text: TextService;
  store: ResponseStore;
  log: Logger;
}): ResponsesService {
  const { text, store, log } = deps;

  async function history(key: AuthKey, id: string | null | undefined) {
    if (!id) return [];
    const previous = await store.load(key.id, id);
    if (!previous) throw missing(id);
    return [...previous.items, ...previous.response.output.map(asInput)];
  }

  /** Every deployment of the model is OpenAI's, so it can answer on its own `/v1/responses`. */
  function isNative(model: string): boolean {
    const deployments = text.catalog.resolve(model)?.deployments ?? [];
    return deployments.length > 0 && deployments.every((d) => d.provider.kind === 'openai');
  }

  /**
   * A model OpenAI serves gets the request on its own `/v1/responses`, unchanged but for two
   * things: the conversation named by `previous_response_id` is sent as items (the gateway keeps
   * it, so it works across failover and instances) and `store: false` (the gateway stores the
   * answer under its own id). The answer comes back as the upstream wrote it, with the gateway's
   * id, `previous_response_id` and `store`.
   */
  async function createNative(
    body: CreateResponseRequest,
    before: ResponseInputItem[],
    pivot: ChatPivot,
    ctx: TextRequestContext,
  ): Promise<TextAnswer> {
    const { previous_response_id: _, ...rest } = body;
    const items = [...before, ...inputItems(body.input)];
    // A copy: the text path inlines the gateway's own images into it, the kept items stay as sent.
    const upstream: CreateResponseRequest = {
      ...rest,
      input: structuredClone(items),
      store: false,
    };
    const answer = await text.generate(
      { format: 'responses', body: upstream, pivot: pivot.body },
      ctx,
    );
    const shell = responseShell(responsesId('resp_'), body, Math.floor(Date.now() / 1000));
    const keep = keeper(body, ctx, items);
    if (answer.kind === 'json') {
      const own = JSON.parse(Buffer.from(answer.body).toString()) as ModelResponse;
      const { id, previous_response_id, store } = shell;
      const response = { ...own, id, previous_response_id, store };
      response.output_text ??= outputText(response);
      await keep(response);
      return { ...answer, body: Buffer.from(JSON.stringify(response)) };
    }
    return { ...answer, write: (sink) => answer.write(new NativeResponsesSink(sink, shell, keep)) };
  }

  /** Stores a completed response unless the request said `store: false`; never rejects. */
  function keeper(
    body: CreateResponseRequest,
    ctx: TextRequestContext,
    items: ResponseInputItem[],
  ) {
    return (response: ModelResponse): Promise<void> =>
      body.store === false
        ? Promise.resolve()
        : store.save(ctx.key.id, { items, response }).catch((err: unknown) => {
            log.error('could not keep a response', { response_id: response.id, err });
          });
  }

  async function create(body: CreateResponseRequest, ctx: TextRequestContext): Promise<TextAnswer> {
    const before = await history(ctx.key, body.previous_response_id);
    // Translated even when passed through: it checks the items and tools, and sizes the request.
    const pivot = toChat(body, before);
    if (isNative(body.model)) return createNative(body, before, pivot, ctx);
    const answer = await text.generate({ format: 'chat', body: pivot.body }, ctx);
    const headers = { ...answer.headers };
    // The pivot's names hold the client's item kinds: encoded as every dropped name is.
    const own = pivot.dropped.length > 0 ? droppedParamsValue(pivot.dropped) : undefined;
    const dropped = [headers[DROPPED_PARAMS_HEADER], own].filter(Boolean);
    if (dropped.length > 0) headers[DROPPED_PARAMS_HEADER] = dropped.join(',');
    const items = [...before, ...inputItems(body.input)];
    const shell = responseShell(responsesId('resp_'), body, Math.floor(Date.now() / 1000));
    const naming = toolNaming(body);
    const keep = keeper(body, ctx, items);
    if (answer.kind === 'json') {
      const chat = JSON.parse(Buffer.from(answer.body).toString()) as ChatCompletionLike;
      const response = fromChat(shell, chat, naming);
      await keep(response);
      return { kind: 'json', headers, body: Buffer.from(JSON.stringify(response)) };
    }
    return {
      kind: 'stream',
      headers,
      write: (sink) => answer.write(new ResponsesStreamSink(sink, shell, naming, keep)),
    };
  }

  async function stored(key: AuthKey, id: string): Promise<StoredResponse> {
    const found = await store.load(key.id, id);
    if (!found) throw missing(id);
    return found;
  }

  return {
    create,
    retrieve: async (key, id) => (await stored(key, id)).response,
    async remove(key, id) {
      if (!(await store.remove(key.id, id))) throw missing(id);
      return { id, object: 'response', deleted: true };
    },
    async inputItems(key, id) {
      const { items } = await stored(key, id);
      return {
        object: 'list',
        data: items,
        first_id: items[0]?.id ?? null,
        last_id: items[items.length - 1]?.id ?? null,
        has_more: false,
      };
    },
    async inputTokens(key, body) {
      const pivot = toChat(body, await history(key, body.previous_response_id));
      const tokens = await countInputTokens({ format: 'chat', body: pivot.body });
      return { object: 'response.input_tokens', input_tokens: tokens, estimated: true };
    },
    async compact(body, ctx) {
      const before = await history(ctx.key, body.previous_response_id);
      const conversation = [...before, ...inputItems(body.input)];
      const request: CreateResponseRequest = {
        model: body.model,
        input: [...conversation, { type: 'message', role: 'user', content: COMPACT_INSTRUCTIONS }],
        store: false,
      };
      const answer = await create(request, ctx);
      if (answer.kind !== 'json') throw new Error('a compaction is never streamed');
      return compaction(conversation, JSON.parse(Buffer.from(answer.body).toString()));
    },
  };
}

/**
 * The compacted conversation: its user messages, then one `compaction` item holding the model's
 * summary (not encrypted here: the summary text, which the request translator reads back).
 */
function compaction(conversation: ResponseInputItem[], summary: ModelResponse): CompactedResponse {
  const userMessages = conversation.filter(
    (i) => (i.type ?? 'message') === 'message' && i.role === 'user',
  );
  return {
    id: responsesId('resp_'),
    object: 'response.compaction',
    created_at: Math.floor(Date.now() / 1000),
    output: [
      ...userMessages,
      { id: responsesId('cmp_'), type: 'compaction', encrypted_content: summary.output_text ?? '' },
    ],
    usage: summary.usage ?? usageOf(null),
  };
}

/** Deletes expired responses every `intervalMs`; returns the stop function. */
export function startResponsesSweep(
  store: ResponseStore,
  settings: { retentionDays: number; sweepIntervalMs: number },
  log: Logger,
): () => void {
  const timer = setInterval(() => {
    const before = Date.now() - settings.retentionDays * 86_400_000;
    store.sweep(before).catch((err: unknown) => log.error('responses sweep failed', { err }));
  }, settings.sweepIntervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
