/** Why a callback was refused. Branch on this, not on the message. */
export type CallbackVerificationReason =
  | 'missing_header'
  | 'malformed_header'
  | 'invalid_signature'
  | 'timestamp_too_old'
  | 'timestamp_in_future'
  | 'malformed_secret'
  | 'invalid_payload';

/** The three Standard Webhooks headers every callback carries. */
export type CallbackHeaderName = 'webhook-id' | 'webhook-timestamp' | 'webhook-signature';

/**
 * Thrown when a callback cannot be trusted (or, for `malformed_secret`, when the receiver's own
 * secret is unusable).
 *
 * @example
 * try {
 *   await verifyCallback({ body, headers, secret });
 * } catch (error) {
 *   if (error instanceof CallbackVerificationError && error.reason === 'timestamp_too_old') {
 *     // a replay, or a clock far off
 *   }
 * }
 */
export class CallbackVerificationError extends Error {
  override readonly name = 'CallbackVerificationError';
  readonly reason: CallbackVerificationReason;
  /** The header at fault, for `missing_header` and `malformed_header`. */
  readonly header: CallbackHeaderName | undefined;
  /** The HTTP status a receiver should answer: 500 for its own bad secret, 401 for an untrusted signature or time, 400 otherwise. */
  readonly status: 400 | 401 | 500;

  constructor(
    reason: CallbackVerificationReason,
    message: string,
    options: { header?: CallbackHeaderName; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.reason = reason;
    this.header = options.header;
    this.status = statusFor(reason);
  }
}

function statusFor(reason: CallbackVerificationReason): 400 | 401 | 500 {
  switch (reason) {
    case 'malformed_secret':
      return 500;
    case 'invalid_signature':
    case 'timestamp_too_old':
    case 'timestamp_in_future':
      return 401;
    default:
      return 400;
  }
}
