// The typed methods, grouped like the OpenAI SDK, each written once: a generated SDK function run
// through the client's invoker, its parameter and result types from the generated types, its
// documentation beside it. `Resources` is the type of what `createResources` builds.
// This module is what `createClient` loads lazily on the first typed call (lazy-resources.ts): it
// holds everything only typed calls need, the generated runtime included.
import { CallAttempt } from './attempt.js';
import {
  createConfig,
  createClient as createGeneratedClient,
  type Client as GeneratedClient,
} from './generated/client/index.js';
import {
  cancelVideoGeneration,
  compactResponse,
  countResponseInputTokens,
  createChatCompletion,
  createCompletion,
  createEmbedding,
  createFile,
  createImage,
  createImageEdit,
  createImageVariation,
  createMessage,
  createResponse,
  createTeam,
  createToken,
  createVideoGeneration,
  deleteFile,
  deleteResponse,
  deleteTeam,
  getCallbackSecret,
  getCreditGrants,
  getFile,
  getKey,
  getResponse,
  getTeam,
  getUsage,
  getVideoGeneration,
  listAuditEntries,
  listCallbackDeliveries,
  listKeys,
  listModels,
  listResponseInputItems,
  listTeams,
  listUsageRecords,
  listVideoGenerations,
  redeliverCallback,
  revokeKey,
  rotateCallbackSecret,
  updateKey,
  updateTeam,
} from './generated/sdk.gen.js';
import type {
  ApiKey,
  ApiKeyList,
  AuditEntryList,
  CallbackDelivery,
  CallbackDeliveryList,
  CallbackSecret,
  ChatCompletion,
  CompactedResponse,
  Completion,
  CreateChatCompletionRequest,
  CreateCompletionRequest,
  CreateEmbeddingRequest,
  CreateFileRequest,
  CreateImageEditJsonRequest,
  CreateImageRequest,
  CreateImageVariationRequest,
  CreateMessageRequest,
  CreateResponseRequest,
  CreateTeamRequest,
  CreateTokenRequest,
  CreateVideoGenerationRequest,
  CreditSummary,
  DeletedFile,
  DeletedResponse,
  DeletedTeam,
  EmbeddingList,
  FileObject,
  GetUsageData,
  ImagesResponse,
  ListAuditEntriesData,
  ListCallbackDeliveriesData,
  ListKeysData,
  ListTeamsData,
  ListUsageRecordsData,
  ListVideoGenerationsData,
  Message,
  ModelList,
  Response as ModelResponse,
  ResponseInputItemList,
  ResponseInputTokens,
  RotateCallbackSecretRequest,
  Team,
  TeamList,
  Token,
  UpdateKeyRequest,
  UpdateTeamRequest,
  UsageRecordList,
  UsageReport,
  VideoTask,
  VideoTaskCreated,
  VideoTaskList,
} from './generated/types.gen.js';
import type { CallOptions, ResolvedClientOptions } from './options.js';
import { randomId } from './random-id.js';
import { type ResponseSchemaName, validateResponse } from './validate.js';

/**
 * A request body with streaming off: streams are `@modelgate/stream`'s job. A key-remapping mapped
 * type rather than `Omit`, which would lose the named fields of the open text bodies (their index
 * signature makes `keyof T` just `string`).
 */
export type NonStreaming<T> = { [K in keyof T as K extends 'stream' ? never : K]: T[K] } & {
  stream?: false;
};

/** Per-call options of `video.generations.create`. */
export interface VideoCreateOptions extends CallOptions {
  /**
   * Same key + same body → the same task. Generated per call when absent, and kept across this
   * call's retries so a retried submission never creates a second task.
   */
  idempotencyKey?: string | undefined;
}

export type ListVideoGenerationsQuery = NonNullable<ListVideoGenerationsData['query']>;
export type ListCallbackDeliveriesQuery = NonNullable<ListCallbackDeliveriesData['query']>;
export type ListKeysQuery = NonNullable<ListKeysData['query']>;
export type ListTeamsQuery = NonNullable<ListTeamsData['query']>;
export type ListAuditEntriesQuery = NonNullable<ListAuditEntriesData['query']>;
export type UsageQuery = NonNullable<GetUsageData['query']>;
export type ListUsageRecordsQuery = NonNullable<ListUsageRecordsData['query']>;

/** The typed methods of a client: `client.chat.completions.create(…)` and the rest. */
export type Resources = ReturnType<typeof createResources>;

/** Runs one generated SDK call with the given fetch; returns its data and response. */
type GeneratedCall<T> = (
  fetch: typeof globalThis.fetch,
) => Promise<{ data: T; response: Response }>;

/**
 * The typed methods of a client with the configuration `config`, on a generated client of its own.
 * Each call sends through the transport (timeouts, retries, errors) and optionally validates.
 */
export function createResources(config: ResolvedClientOptions) {
  const client: GeneratedClient = createGeneratedClient(
    createConfig({
      baseUrl: config.baseUrl,
      auth: config.apiKey,
      headers: config.headers,
      throwOnError: true,
    }),
  );
  const invoke = async <T>(
    call: GeneratedCall<T>,
    options: CallOptions = {},
    schema?: ResponseSchemaName,
  ): Promise<T> => {
    const attempt = new CallAttempt(config, options);
    try {
      const { data, response } = await call(attempt.fetch);
      if (config.validateResponses && schema) await validateResponse(schema, data, response);
      return data;
    } catch (error) {
      throw attempt.normalize(error);
    } finally {
      attempt.release();
    }
  };
  /** What every generated SDK call takes, plus the operation's own body, path or query. */
  const args = <Own extends object>(
    fetch: typeof globalThis.fetch,
    options: CallOptions | undefined,
    own: Own,
  ) => ({ client, fetch, headers: options?.headers, throwOnError: true as const, ...own });
  return {
    chat: {
      completions: {
        /** `POST /v1/chat/completions` (non-streaming). */
        create: (
          body: NonStreaming<CreateChatCompletionRequest>,
          options?: CallOptions,
        ): Promise<ChatCompletion> =>
          invoke(
            (fetch) => createChatCompletion(args(fetch, options, { body })),
            options,
            'zChatCompletion',
          ),
      },
    },
    completions: {
      /** `POST /v1/completions`, the legacy text completion (non-streaming). */
      create: (
        body: NonStreaming<CreateCompletionRequest>,
        options?: CallOptions,
      ): Promise<Completion> =>
        invoke((fetch) => createCompletion(args(fetch, options, { body })), options, 'zCompletion'),
    },
    messages: {
      /** `POST /v1/messages`, the vendor-native messages format (non-streaming). */
      create: (body: NonStreaming<CreateMessageRequest>, options?: CallOptions): Promise<Message> =>
        invoke((fetch) => createMessage(args(fetch, options, { body })), options, 'zMessage'),
    },
    responses: {
      /** `POST /v1/responses`, OpenAI's Responses API (non-streaming). */
      create: (
        body: NonStreaming<CreateResponseRequest>,
        options?: CallOptions,
      ): Promise<ModelResponse> =>
        invoke((fetch) => createResponse(args(fetch, options, { body })), options, 'zResponse'),
      /** `GET /v1/responses/{id}`: a response the key created, while the gateway keeps it. */
      retrieve: (id: string, options?: CallOptions): Promise<ModelResponse> =>
        invoke(
          (fetch) => getResponse(args(fetch, options, { path: { response_id: id } })),
          options,
          'zResponse',
        ),
      /** `DELETE /v1/responses/{id}`. */
      delete: (id: string, options?: CallOptions): Promise<DeletedResponse> =>
        invoke(
          (fetch) => deleteResponse(args(fetch, options, { path: { response_id: id } })),
          options,
          'zDeletedResponse',
        ),
      inputItems: {
        /** `GET /v1/responses/{id}/input_items`: the items the response was created from. */
        list: (id: string, options?: CallOptions): Promise<ResponseInputItemList> =>
          invoke(
            (fetch) => listResponseInputItems(args(fetch, options, { path: { response_id: id } })),
            options,
            'zResponseInputItemList',
          ),
      },
      inputTokens: {
        /** `POST /v1/responses/input_tokens`: the gateway's estimate, not billed. */
        count: (body: CreateResponseRequest, options?: CallOptions): Promise<ResponseInputTokens> =>
          invoke(
            (fetch) => countResponseInputTokens(args(fetch, options, { body })),
            options,
            'zResponseInputTokens',
          ),
      },
      /** `POST /v1/responses/compact`: the conversation summarised by the model. */
      compact: (body: CreateResponseRequest, options?: CallOptions): Promise<CompactedResponse> =>
        invoke(
          (fetch) => compactResponse(args(fetch, options, { body })),
          options,
          'zCompactedResponse',
        ),
    },
    models: {
      /**
       * `GET /v1/models`: text, image and video models, with each image and video model's allowed
       * values and prices.
       */
      list: (options?: CallOptions): Promise<ModelList> =>
        invoke((fetch) => listModels(args(fetch, options, {})), options, 'zModelList'),
    },
    images: {
      /**
       * `POST /v1/images/generations`: generates `n` images from a prompt, in OpenAI's Images API
       * format. With `response_format: 'url'` each image is stored as a file of the key and `url` is
       * its address on the gateway's CDN (usable as a video's `image_url`, served until deleted);
       * with `'b64_json'` it comes inline. The default is the model's (`GET /v1/models`).
       *
       * @example
       * const { data } = await client.images.generate({
       *   model: 'dall-e-3',
       *   prompt: 'A paper boat on a rainy street, watercolour',
       *   size: '1792x1024',
       * });
       * console.log(data[0]?.url); // http://localhost:8081/files/file-….png
       */
      generate: (body: CreateImageRequest, options?: CallOptions): Promise<ImagesResponse> =>
        invoke((fetch) => createImage(args(fetch, options, { body })), options, 'zImagesResponse'),
      /**
       * `POST /v1/images/edits` (the JSON form): new images from input images named by `image_url`
       * (a CDN URL of the key's file, a `data:` URL or a public https URL) or `file_id`, and a prompt.
       * Upload local images with `files.create` first. Results, billing and `response_format` as for
       * `generate`; the models that edit have `edit` in `image.operations` (`models.list()`).
       *
       * @example
       * const file = await client.files.create({ file, purpose: 'image' });
       * const { data } = await client.images.edit({
       *   model: 'gpt-image-1',
       *   prompt: 'Paint the walls sage green',
       *   images: [{ file_id: file.id }],
       *   response_format: 'url',
       * });
       */
      edit: (
        body: NonStreaming<CreateImageEditJsonRequest>,
        options?: CallOptions,
      ): Promise<ImagesResponse> =>
        invoke(
          (fetch) => createImageEdit(args(fetch, options, { body })),
          options,
          'zImagesResponse',
        ),
      /**
       * `POST /v1/images/variations` (multipart): `n` variations of one square PNG (`dall-e-2`).
       *
       * @example
       * const { data } = await client.images.createVariation({ image: file, n: 2, size: '512x512' });
       */
      createVariation: (
        body: CreateImageVariationRequest,
        options?: CallOptions,
      ): Promise<ImagesResponse> =>
        invoke(
          (fetch) => createImageVariation(args(fetch, options, { body })),
          options,
          'zImagesResponse',
        ),
    },
    embeddings: {
      /**
       * `POST /v1/embeddings`: one unit-length vector per input (a string, strings or token ids),
       * as numbers or base64 (`encoding_format`), shortened with `dimensions` where the model allows
       * (`embedding` in `models.list()`). Billed per input token.
       *
       * @example
       * const { data } = await client.embeddings.create({
       *   model: 'text-embedding-3-small',
       *   input: ['The quick brown fox', 'jumps over the lazy dog'],
       *   dimensions: 256,
       * });
       * console.log(data[0]?.embedding);
       */
      create: (body: CreateEmbeddingRequest, options?: CallOptions): Promise<EmbeddingList> =>
        invoke(
          (fetch) => createEmbedding(args(fetch, options, { body })),
          options,
          'zEmbeddingList',
        ),
    },
    files: {
      /** `POST /v1/files` (multipart). Pass a `File` to keep its name; a bare `Blob` is sent as "blob". */
      create: (body: CreateFileRequest, options?: CallOptions): Promise<FileObject> =>
        invoke((fetch) => createFile(args(fetch, options, { body })), options, 'zFileObject'),
      /** `GET /v1/files/{file_id}`: the file's metadata and CDN URL. */
      retrieve: (fileId: string, options?: CallOptions): Promise<FileObject> =>
        invoke(
          (fetch) => getFile(args(fetch, options, { path: { file_id: fileId } })),
          options,
          'zFileObject',
        ),
      /** `DELETE /v1/files/{file_id}`: the file and its CDN URL are gone. */
      delete: (fileId: string, options?: CallOptions): Promise<DeletedFile> =>
        invoke(
          (fetch) => deleteFile(args(fetch, options, { path: { file_id: fileId } })),
          options,
          'zDeletedFile',
        ),
    },
    video: {
      generations: {
        /** `POST /v1/video/generations`: submits a task; poll it with `retrieve` or get a callback. */
        create: (
          body: CreateVideoGenerationRequest,
          options?: VideoCreateOptions,
        ): Promise<VideoTaskCreated> => {
          // Fixed before the first attempt, so every retry of this call carries the same key.
          const idempotencyKey = options?.idempotencyKey ?? randomId();
          return invoke(
            (fetch) =>
              createVideoGeneration(
                args(fetch, options, {
                  body,
                  headers: { ...options?.headers, 'Idempotency-Key': idempotencyKey },
                }),
              ),
            options,
            'zVideoTaskCreated',
          );
        },
        /** `GET /v1/video/generations/{task_id}`: the task's state, and its result once done. */
        retrieve: (taskId: string, options?: CallOptions): Promise<VideoTask> =>
          invoke(
            (fetch) => getVideoGeneration(args(fetch, options, { path: { task_id: taskId } })),
            options,
            'zVideoTask',
          ),
        /** The key's tasks, newest first; pass `next_cursor` as `after` for the next page. */
        list: (query?: ListVideoGenerationsQuery, options?: CallOptions): Promise<VideoTaskList> =>
          invoke(
            (fetch) => listVideoGenerations(args(fetch, options, { query })),
            options,
            'zVideoTaskList',
          ),
        /** `POST /v1/video/generations/{task_id}/cancel`: stops a task that has not finished. */
        cancel: (taskId: string, options?: CallOptions): Promise<VideoTask> =>
          invoke(
            (fetch) => cancelVideoGeneration(args(fetch, options, { path: { task_id: taskId } })),
            options,
            'zVideoTask',
          ),
      },
    },
    billing: {
      /** `GET /v1/dashboard/billing/credit_grants`: balance and grants of the key presented. */
      creditGrants: (options?: CallOptions): Promise<CreditSummary> =>
        invoke((fetch) => getCreditGrants(args(fetch, options, {})), options, 'zCreditSummary'),
    },
    tokens: {
      /** `POST /v1/token` (admin key): creates a key; its secret is shown only in this response. */
      create: (body: CreateTokenRequest, options?: CallOptions): Promise<Token> =>
        invoke((fetch) => createToken(args(fetch, options, { body })), options, 'zToken'),
    },
    keys: {
      /** `GET /v1/keys` (admin key): every key, newest first, with its state and spend; never its secret. */
      list: (query?: ListKeysQuery, options?: CallOptions): Promise<ApiKeyList> =>
        invoke((fetch) => listKeys(args(fetch, options, { query })), options, 'zApiKeyList'),
      /** `GET /v1/keys/{key_id}` (admin key). */
      retrieve: (keyId: number, options?: CallOptions): Promise<ApiKey> =>
        invoke(
          (fetch) => getKey(args(fetch, options, { path: { key_id: keyId } })),
          options,
          'zApiKey',
        ),
      /**
       * `PATCH /v1/keys/{key_id}` (admin key): changes the fields sent (a new total `quota` tops a key
       * up; null clears a limit).
       */
      update: (keyId: number, body: UpdateKeyRequest, options?: CallOptions): Promise<ApiKey> =>
        invoke(
          (fetch) => updateKey(args(fetch, options, { path: { key_id: keyId }, body })),
          options,
          'zApiKey',
        ),
      /** `POST /v1/keys/{key_id}/revoke` (admin key): for good; a retried revoke is harmless. */
      revoke: (keyId: number, options?: CallOptions): Promise<ApiKey> =>
        invoke(
          (fetch) => revokeKey(args(fetch, options, { path: { key_id: keyId } })),
          options,
          'zApiKey',
        ),
    },
    teams: {
      /**
       * `GET /v1/teams` (admin key): teams newest first, each with its budget's current period and
       * how many keys it has.
       *
       * @example
       * const { data } = await client.teams.list({ limit: 20 });
       * for (const team of data) console.log(team.name, team.budget?.spent, '/', team.budget?.amount);
       */
      list: (query?: ListTeamsQuery, options?: CallOptions): Promise<TeamList> =>
        invoke((fetch) => listTeams(args(fetch, options, { query })), options, 'zTeamList'),
      /** `POST /v1/teams` (admin key): a team with an optional budget (quota units per period). */
      create: (body: CreateTeamRequest, options?: CallOptions): Promise<Team> =>
        invoke((fetch) => createTeam(args(fetch, options, { body })), options, 'zTeam'),
      /** `GET /v1/teams/{team_id}` (admin key). */
      retrieve: (teamId: number, options?: CallOptions): Promise<Team> =>
        invoke(
          (fetch) => getTeam(args(fetch, options, { path: { team_id: teamId } })),
          options,
          'zTeam',
        ),
      /** `PATCH /v1/teams/{team_id}` (admin key): changes the fields sent; a null budget removes it. */
      update: (teamId: number, body: UpdateTeamRequest, options?: CallOptions): Promise<Team> =>
        invoke(
          (fetch) => updateTeam(args(fetch, options, { path: { team_id: teamId }, body })),
          options,
          'zTeam',
        ),
      /** `DELETE /v1/teams/{team_id}` (admin key): 409 `team_has_keys` while keys belong to it. */
      delete: (teamId: number, options?: CallOptions): Promise<DeletedTeam> =>
        invoke(
          (fetch) => deleteTeam(args(fetch, options, { path: { team_id: teamId } })),
          options,
          'zDeletedTeam',
        ),
    },
    audit: {
      /**
       * `GET /v1/audit` (admin key): every administrative change, newest first, with who made it
       * and the values before and after; filter by `action` or `key_id`.
       *
       * @example
       * const { data } = await client.audit.list({ key_id: 42 });
       * for (const entry of data) console.log(entry.action, entry.before, '→', entry.after);
       */
      list: (query?: ListAuditEntriesQuery, options?: CallOptions): Promise<AuditEntryList> =>
        invoke(
          (fetch) => listAuditEntries(args(fetch, options, { query })),
          options,
          'zAuditEntryList',
        ),
    },
    usage: {
      /**
       * `GET /v1/usage`: requests, tokens and cost per hour or day; the key's own, or (admin key) any
       * key's or all of them.
       */
      retrieve: (query?: UsageQuery, options?: CallOptions): Promise<UsageReport> =>
        invoke((fetch) => getUsage(args(fetch, options, { query })), options, 'zUsageReport'),
      records: {
        /**
         * `GET /v1/usage/records`: the charges behind the report, newest first; `request_id` finds
         * the one of a response's `x-request-id`.
         */
        list: (query?: ListUsageRecordsQuery, options?: CallOptions): Promise<UsageRecordList> =>
          invoke(
            (fetch) => listUsageRecords(args(fetch, options, { query })),
            options,
            'zUsageRecordList',
          ),
      },
    },
    callbacks: {
      secret: {
        /** `GET /v1/callbacks/secret`: the key's callback signing secret. */
        retrieve: (options?: CallOptions): Promise<CallbackSecret> =>
          invoke(
            (fetch) => getCallbackSecret(args(fetch, options, {})),
            options,
            'zCallbackSecret',
          ),
        /** New secret; the previous one keeps verifying for the grace period. */
        rotate: (
          body?: RotateCallbackSecretRequest,
          options?: CallOptions,
        ): Promise<CallbackSecret> =>
          invoke(
            (fetch) => rotateCallbackSecret(args(fetch, options, { body })),
            options,
            'zCallbackSecret',
          ),
      },
      deliveries: {
        /** `GET /v1/callbacks/deliveries`: the key's callback deliveries and their attempts. */
        list: (
          query?: ListCallbackDeliveriesQuery,
          options?: CallOptions,
        ): Promise<CallbackDeliveryList> =>
          invoke(
            (fetch) => listCallbackDeliveries(args(fetch, options, { query })),
            options,
            'zCallbackDeliveryList',
          ),
        /** `POST …/{delivery_id}/redeliver`: sends a delivered or failed callback again. */
        redeliver: (deliveryId: string, options?: CallOptions): Promise<CallbackDelivery> =>
          invoke(
            (fetch) =>
              redeliverCallback(args(fetch, options, { path: { delivery_id: deliveryId } })),
            options,
            'zCallbackDelivery',
          ),
      },
    },
  };
}
