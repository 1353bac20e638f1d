/**
 * The text routes: POST /v1/chat/completions, /v1/completions and /v1/messages. Each turns its
 * request into a typed {@link TextRequest}: the JSON body validated with the spec's zod schema (a
 * fast path recognises the common plain-text bodies) and, for messages, the version header.
 */
import type { CreateResponseRequest } from '@modelgate/core';
import {
  zCreateChatCompletionRequest,
  zCreateCompletionRequest,
  zCreateMessageRequest,
  zCreateResponseRequest,
} from '@modelgate/core/zod';
import { badRequest } from '../../errors/api-error.js';
import { ANTHROPIC_BETA, betaFlags } from '../../providers/text/betas.js';
import type { TextRequest } from '../../text/service.js';
import { chatBodyFastPath, messagesBodyFastPath } from '../body-fast-paths.js';
import { inClientOrder } from '../client-order.js';
import { validateMessagesBody } from '../messages-body.js';
import type { RouteEntry } from '../route-table.js';
import { validateBody } from '../validate.js';

/** The messages API versions this gateway speaks; the last is the latest. */
export const SUPPORTED_MESSAGES_VERSIONS = ['2023-06-01'] as const;
export const LATEST_MESSAGES_VERSION = '2023-06-01';

/**
 * Resolves the messages version from `vendor-version` (or its alias `anthropic-version`).
 * Absent → the latest. A well-formed date selects the newest supported version not after it, so
 * clients pinned to a later date keep working; a malformed value or a date before the first
 * supported version is a 400 naming the header.
 *
 * @example
 * resolveMessagesVersion(undefined); // '2023-06-01'
 * resolveMessagesVersion('2025-01-01'); // '2023-06-01'
 */
export function resolveMessagesVersion(header: string | undefined): string {
  if (header === undefined || header.trim() === '') return LATEST_MESSAGES_VERSION;
  const value = header.trim();
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  const date = match ? new Date(`${value}T00:00:00Z`) : null;
  if (
    !match ||
    !date ||
    Number.isNaN(date.getTime()) ||
    date.toISOString().slice(0, 10) !== value
  ) {
    throw badRequest(
      `vendor-version must be a date in the form YYYY-MM-DD (got "${value}").`,
      'vendor-version',
      'invalid_value',
    );
  }
  const applicable = SUPPORTED_MESSAGES_VERSIONS.filter((v) => v <= value);
  const chosen = applicable[applicable.length - 1];
  if (!chosen) {
    throw badRequest(
      `vendor-version ${value} is not supported; supported: ${SUPPORTED_MESSAGES_VERSIONS.join(', ')}.`,
      'vendor-version',
      'unsupported_version',
    );
  }
  return chosen;
}

/** A request header by lower-case name. */
export type HeaderReader = (name: string) => string | undefined;

/** A header's value, with an empty or all-blank value counting as absent (spec: VendorVersion). */
function nonBlank(header: HeaderReader, name: string): string | undefined {
  const value = header(name);
  return value === undefined || value.trim() === '' ? undefined : value;
}

/** A text-path request, or a Responses API create (served by the responses service over the text path). */
export type EdgeRequest =
  | TextRequest
  | { readonly format: 'responses'; readonly body: CreateResponseRequest };

/**
 * `anthropic-version` as sent: unlike `vendor-version`, the vendor's header has no blank form
 * (spec: AnthropicVersion is a date), so an empty value is a 400 rather than the default.
 */
function anthropicVersion(header: HeaderReader): string | undefined {
  const value = header('anthropic-version');
  if (value !== undefined && value.trim() === '') {
    throw badRequest(
      'anthropic-version must be a date in the form YYYY-MM-DD (got an empty value).',
      'anthropic-version',
      'invalid_value',
    );
  }
  return value;
}

/**
 * The version headers of a messages-format request, checked, as the answer's `vendor-version`.
 * `vendor-version` wins over its alias when both are sent (spec: VendorVersion).
 *
 * @example
 * readMessagesHeaders((name) => (name === 'anthropic-version' ? '2023-06-01' : undefined));
 * // { 'vendor-version': '2023-06-01' }
 */
export function readMessagesHeaders(header: HeaderReader): Record<string, string> {
  return {
    'vendor-version': resolveMessagesVersion(
      nonBlank(header, 'vendor-version') ?? anthropicVersion(header),
    ),
  };
}

export interface TextRoute {
  path: string;
  /**
   * Checks the route's own headers before the body is read, and returns the headers its answer
   * adds (400 for a bad one).
   */
  readHeaders(header: HeaderReader): Record<string, string>;
  /**
   * The typed request from the parsed JSON body (400 where the spec's schema refuses it) and the
   * request headers it carries on.
   */
  toRequest(body: unknown, header: HeaderReader): EdgeRequest;
}

const NO_HEADERS: Record<string, string> = {};

/**
 * The client's `anthropic-beta` flags (all its values when sent more than once); undefined when
 * there are none, so the common request carries nothing extra.
 *
 * @example
 * clientBetas((name) => (name === 'anthropic-beta' ? 'a, b,a' : undefined)); // ['a', 'b']
 */
export function clientBetas(header: HeaderReader): readonly string[] | undefined {
  const value = header(ANTHROPIC_BETA);
  if (value === undefined) return undefined;
  const flags = betaFlags(value);
  return flags.length > 0 ? flags : undefined;
}

export const TEXT_ROUTES: readonly TextRoute[] = [
  {
    path: '/v1/chat/completions',
    readHeaders: () => NO_HEADERS,
    toRequest: (raw) => ({
      format: 'chat',
      body: chatBodyFastPath(raw) ?? validateBody(zCreateChatCompletionRequest, raw),
    }),
  },
  {
    path: '/v1/completions',
    readHeaders: () => NO_HEADERS,
    toRequest: (raw) => ({
      format: 'completion',
      body: validateBody(zCreateCompletionRequest, raw),
    }),
  },
  {
    path: '/v1/messages',
    readHeaders: readMessagesHeaders,
    toRequest: (raw, header) => ({
      format: 'messages',
      body: messagesBodyFastPath(raw) ?? validateMessagesBody(zCreateMessageRequest, raw),
      betas: clientBetas(header),
    }),
  },
  {
    path: '/v1/responses',
    readHeaders: () => NO_HEADERS,
    toRequest: (raw) => ({
      format: 'responses',
      // In the client's key order: a native upstream gets the items as sent.
      body: inClientOrder(validateBody(zCreateResponseRequest, raw), raw),
    }),
  },
];

/** The text routes as route-table entries (405 with Allow for their other methods). */
export const TEXT_ROUTE_ENTRIES: readonly RouteEntry[] = TEXT_ROUTES.map(({ path }) => ({
  method: 'POST',
  path,
}));
