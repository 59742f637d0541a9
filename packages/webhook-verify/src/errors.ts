/** Machine-readable reasons a delivery was rejected. Stable: partners may switch on them. */
export type WebhookVerificationErrorCode =
  | 'MISSING_HEADER'
  | 'MALFORMED_HEADER'
  | 'TIMESTAMP_TOO_OLD'
  | 'TIMESTAMP_IN_FUTURE'
  | 'SIGNATURE_MISMATCH'
  | 'MALFORMED_BODY'
  | 'EVENT_ID_MISMATCH'
  | 'EVENT_TYPE_MISMATCH';

/**
 * Thrown by `verify` when a request must not be trusted. The message never contains the
 * expected signature or the secret, so it is safe to return to the caller or to log.
 */
export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';

  constructor(
    readonly code: WebhookVerificationErrorCode,
    message: string,
  ) {
    super(message);
  }
}
