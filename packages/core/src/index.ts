// `@modelgate/core`: the client, its errors, and every generated API type.
export { createClient, type ModelgateClient } from './client.js';
export {
  AuthenticationError,
  asModelgateError,
  ConflictError,
  ConnectionError,
  InsufficientQuotaError,
  ModelgateError,
  type ModelgateErrorInit,
  NotFoundError,
  PermissionError,
  RateLimitError,
  TimeoutError,
  UpstreamError,
  ValidationError,
} from './errors.js';
export type * from './generated/types.gen.js';
export type {
  CallOptions,
  ModelgateClientOptions,
  RawRequest,
  ResolvedClientOptions,
} from './options.js';
export type {
  ListAuditEntriesQuery,
  ListCallbackDeliveriesQuery,
  ListKeysQuery,
  ListTeamsQuery,
  ListUsageRecordsQuery,
  ListVideoGenerationsQuery,
  NonStreaming,
  Resources,
  UsageQuery,
  VideoCreateOptions,
} from './resources.js';
export {
  backoffMs,
  type HeaderRecord,
  isRetryableError,
  isRetryableStatus,
  MAX_RETRY_AFTER_MS,
  parseRetryAfterMs,
  type RetryAfterSource,
  sleep,
} from './retry.js';
export { addUsage, emptyUsage, usageCsv } from './usage.js';
