// The typed methods, grouped like the OpenAI SDK. Each one is a generated SDK function run through
// the client's invoker; parameter and result types all come from the generated types.
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
  createChatCompletion,
  createCompletion,
  createEmbedding,
  createFile,
  createImage,
  createImageEdit,
  createImageVariation,
  createMessage,
  createToken,
  createVideoGeneration,
  deleteFile,
  getCallbackSecret,
  getCreditGrants,
  getFile,
  getKey,
  getUsage,
  getVideoGeneration,
  listCallbackDeliveries,
  listKeys,
  listModels,
  listUsageRecords,
  listVideoGenerations,
  revokeKey,
  rotateCallbackSecret,
  updateKey,
} from './generated/sdk.gen.js';
import type {
  ApiKey,
  ApiKeyList,
  CallbackDeliveryList,
  CallbackSecret,
  ChatCompletion,
  Completion,
  CreateChatCompletionRequest,
  CreateCompletionRequest,
  CreateEmbeddingRequest,
  CreateFileRequest,
  CreateImageEditJsonRequest,
  CreateImageRequest,
  CreateImageVariationRequest,
  CreateMessageRequest,
  CreateTokenRequest,
  CreateVideoGenerationRequest,
  CreditSummary,
  DeletedFile,
  EmbeddingList,
  FileObject,
  GetUsageData,
  ImagesResponse,
  ListCallbackDeliveriesData,
  ListKeysData,
  ListUsageRecordsData,
  ListVideoGenerationsData,
  Message,
  ModelList,
  RotateCallbackSecretRequest,
  Token,
  UpdateKeyRequest,
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
export type UsageQuery = NonNullable<GetUsageData['query']>;
export type ListUsageRecordsQuery = NonNullable<ListUsageRecordsData['query']>;

export interface Resources {
  chat: {
    completions: {
      /** `POST /v1/chat/completions` (non-streaming). */
      create(
        body: NonStreaming<CreateChatCompletionRequest>,
        options?: CallOptions,
      ): Promise<ChatCompletion>;
    };
  };
  completions: {
    /** `POST /v1/completions`, the legacy text completion (non-streaming). */
    create(body: NonStreaming<CreateCompletionRequest>, options?: CallOptions): Promise<Completion>;
  };
  messages: {
    /** `POST /v1/messages`, the vendor-native messages format (non-streaming). */
    create(body: NonStreaming<CreateMessageRequest>, options?: CallOptions): Promise<Message>;
  };
  models: {
    /**
     * `GET /v1/models`: text, image and video models, with each image and video model's allowed
     * values and prices.
     */
    list(options?: CallOptions): Promise<ModelList>;
  };
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
    generate(body: CreateImageRequest, options?: CallOptions): Promise<ImagesResponse>;
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
    edit(
      body: NonStreaming<CreateImageEditJsonRequest>,
      options?: CallOptions,
    ): Promise<ImagesResponse>;
    /**
     * `POST /v1/images/variations` (multipart): `n` variations of one square PNG (`dall-e-2`).
     *
     * @example
     * const { data } = await client.images.createVariation({ image: file, n: 2, size: '512x512' });
     */
    createVariation(
      body: CreateImageVariationRequest,
      options?: CallOptions,
    ): Promise<ImagesResponse>;
  };
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
    create(body: CreateEmbeddingRequest, options?: CallOptions): Promise<EmbeddingList>;
  };
  files: {
    /** `POST /v1/files` (multipart). Pass a `File` to keep its name; a bare `Blob` is sent as "blob". */
    create(body: CreateFileRequest, options?: CallOptions): Promise<FileObject>;
    retrieve(fileId: string, options?: CallOptions): Promise<FileObject>;
    delete(fileId: string, options?: CallOptions): Promise<DeletedFile>;
  };
  video: {
    generations: {
      /** `POST /v1/video/generations`: submits a task; poll it with `retrieve` or get a callback. */
      create(
        body: CreateVideoGenerationRequest,
        options?: VideoCreateOptions,
      ): Promise<VideoTaskCreated>;
      retrieve(taskId: string, options?: CallOptions): Promise<VideoTask>;
      /** The key's tasks, newest first; pass `next_cursor` as `after` for the next page. */
      list(query?: ListVideoGenerationsQuery, options?: CallOptions): Promise<VideoTaskList>;
      cancel(taskId: string, options?: CallOptions): Promise<VideoTask>;
    };
  };
  billing: {
    /** `GET /v1/dashboard/billing/credit_grants`: balance and grants of the key presented. */
    creditGrants(options?: CallOptions): Promise<CreditSummary>;
  };
  tokens: {
    /** `POST /v1/token` (admin key): creates a key; its secret is shown only in this response. */
    create(body: CreateTokenRequest, options?: CallOptions): Promise<Token>;
  };
  keys: {
    /** `GET /v1/keys` (admin key): every key, newest first, with its state and spend; never its secret. */
    list(query?: ListKeysQuery, options?: CallOptions): Promise<ApiKeyList>;
    /** `GET /v1/keys/{key_id}` (admin key). */
    retrieve(keyId: number, options?: CallOptions): Promise<ApiKey>;
    /**
     * `PATCH /v1/keys/{key_id}` (admin key): changes the fields sent (a new total `quota` tops a key
     * up; null clears a limit).
     */
    update(keyId: number, body: UpdateKeyRequest, options?: CallOptions): Promise<ApiKey>;
    /** `POST /v1/keys/{key_id}/revoke` (admin key): for good; a retried revoke is harmless. */
    revoke(keyId: number, options?: CallOptions): Promise<ApiKey>;
  };
  usage: {
    /**
     * `GET /v1/usage`: requests, tokens and cost per hour or day; the key's own, or (admin key) any
     * key's or all of them.
     */
    retrieve(query?: UsageQuery, options?: CallOptions): Promise<UsageReport>;
    records: {
      /**
       * `GET /v1/usage/records`: the charges behind the report, newest first; `request_id` finds
       * the one of a response's `x-request-id`.
       */
      list(query?: ListUsageRecordsQuery, options?: CallOptions): Promise<UsageRecordList>;
    };
  };
  callbacks: {
    secret: {
      retrieve(options?: CallOptions): Promise<CallbackSecret>;
      /** New secret; the previous one keeps verifying for the grace period. */
      rotate(body?: RotateCallbackSecretRequest, options?: CallOptions): Promise<CallbackSecret>;
    };
    deliveries: {
      list(
        query?: ListCallbackDeliveriesQuery,
        options?: CallOptions,
      ): Promise<CallbackDeliveryList>;
    };
  };
}

/** Runs one generated SDK call with the given fetch; returns its data and response. */
type GeneratedCall<T> = (
  fetch: typeof globalThis.fetch,
) => Promise<{ data: T; response: Response }>;

/**
 * The typed methods of a client with the configuration `config`, on a generated client of its own.
 * Each call sends through the transport (timeouts, retries, errors) and optionally validates.
 */
export function createResources(config: ResolvedClientOptions): Resources {
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
        create: (body, options) =>
          invoke(
            (fetch) => createChatCompletion(args(fetch, options, { body })),
            options,
            'zChatCompletion',
          ),
      },
    },
    completions: {
      create: (body, options) =>
        invoke((fetch) => createCompletion(args(fetch, options, { body })), options, 'zCompletion'),
    },
    messages: {
      create: (body, options) =>
        invoke((fetch) => createMessage(args(fetch, options, { body })), options, 'zMessage'),
    },
    models: {
      list: (options) =>
        invoke((fetch) => listModels(args(fetch, options, {})), options, 'zModelList'),
    },
    images: {
      generate: (body, options) =>
        invoke((fetch) => createImage(args(fetch, options, { body })), options, 'zImagesResponse'),
      edit: (body, options) =>
        invoke(
          (fetch) => createImageEdit(args(fetch, options, { body })),
          options,
          'zImagesResponse',
        ),
      createVariation: (body, options) =>
        invoke(
          (fetch) => createImageVariation(args(fetch, options, { body })),
          options,
          'zImagesResponse',
        ),
    },
    embeddings: {
      create: (body, options) =>
        invoke(
          (fetch) => createEmbedding(args(fetch, options, { body })),
          options,
          'zEmbeddingList',
        ),
    },
    files: {
      create: (body, options) =>
        invoke((fetch) => createFile(args(fetch, options, { body })), options, 'zFileObject'),
      retrieve: (fileId, options) =>
        invoke(
          (fetch) => getFile(args(fetch, options, { path: { file_id: fileId } })),
          options,
          'zFileObject',
        ),
      delete: (fileId, options) =>
        invoke(
          (fetch) => deleteFile(args(fetch, options, { path: { file_id: fileId } })),
          options,
          'zDeletedFile',
        ),
    },
    video: {
      generations: {
        create: (body, options) => {
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
        retrieve: (taskId, options) =>
          invoke(
            (fetch) => getVideoGeneration(args(fetch, options, { path: { task_id: taskId } })),
            options,
            'zVideoTask',
          ),
        list: (query, options) =>
          invoke(
            (fetch) => listVideoGenerations(args(fetch, options, { query })),
            options,
            'zVideoTaskList',
          ),
        cancel: (taskId, options) =>
          invoke(
            (fetch) => cancelVideoGeneration(args(fetch, options, { path: { task_id: taskId } })),
            options,
            'zVideoTask',
          ),
      },
    },
    billing: {
      creditGrants: (options) =>
        invoke((fetch) => getCreditGrants(args(fetch, options, {})), options, 'zCreditSummary'),
    },
    tokens: {
      create: (body, options) =>
        invoke((fetch) => createToken(args(fetch, options, { body })), options, 'zToken'),
    },
    keys: {
      list: (query, options) =>
        invoke((fetch) => listKeys(args(fetch, options, { query })), options, 'zApiKeyList'),
      retrieve: (keyId, options) =>
        invoke(
          (fetch) => getKey(args(fetch, options, { path: { key_id: keyId } })),
          options,
          'zApiKey',
        ),
      update: (keyId, body, options) =>
        invoke(
          (fetch) => updateKey(args(fetch, options, { path: { key_id: keyId }, body })),
          options,
          'zApiKey',
        ),
      revoke: (keyId, options) =>
        invoke(
          (fetch) => revokeKey(args(fetch, options, { path: { key_id: keyId } })),
          options,
          'zApiKey',
        ),
    },
    usage: {
      retrieve: (query, options) =>
        invoke((fetch) => getUsage(args(fetch, options, { query })), options, 'zUsageReport'),
      records: {
        list: (query, options) =>
          invoke(
            (fetch) => listUsageRecords(args(fetch, options, { query })),
            options,
            'zUsageRecordList',
          ),
      },
    },
    callbacks: {
      secret: {
        retrieve: (options) =>
          invoke(
            (fetch) => getCallbackSecret(args(fetch, options, {})),
            options,
            'zCallbackSecret',
          ),
        rotate: (body, options) =>
          invoke(
            (fetch) => rotateCallbackSecret(args(fetch, options, { body })),
            options,
            'zCallbackSecret',
          ),
      },
      deliveries: {
        list: (query, options) =>
          invoke(
            (fetch) => listCallbackDeliveries(args(fetch, options, { query })),
            options,
            'zCallbackDeliveryList',
          ),
      },
    },
  };
}
