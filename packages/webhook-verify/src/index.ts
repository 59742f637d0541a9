export { verify, DEFAULT_TOLERANCE_SECONDS, DEFAULT_FUTURE_SKEW_SECONDS } from './verify';
export type { VerifyOptions, VerifiedWebhook } from './verify';
export { sign } from './signature';
export { signStandard, STANDARD_WEBHOOK_HEADERS } from './standard-webhooks';
export type { RawBody, Secrets } from './signature';
export { eventIdFromEnvelopeId, envelopeIdFromEventId, sameEvent, isEventId, isEnvelopeId } from './event-id';
export { WEBHOOK_HEADERS, parseSignatureHeader } from './headers';
export type { HeaderSource, FetchStyleHeaders, ParsedSignatureHeader } from './headers';
export { WebhookVerificationError } from './errors';
export type { WebhookVerificationErrorCode } from './errors';
export { MemoryDedupeStore } from './dedupe';
export type { DedupeStore, MemoryDedupeStoreOptions } from './dedupe';
export { webhookMiddleware, DEFAULT_MAX_BODY_BYTES } from './express';
export type { WebhookMiddlewareOptions, WebhookEventMeta } from './express';
export { WEBHOOK_EVENT_TYPES, isWebhookEventType } from './types';
export type {
  WebhookEventType,
  EntryEventType,
  EmployeeEventType,
  TravelEntryWebhookDto,
  EmployeeWebhookDto,
  KnownCompanyPermission,
  CompanyPermission,
  EnvelopeId,
  EntryWebhookEnvelope,
  EmployeeWebhookEnvelope,
  WebhookEnvelope,
  WebhookEnvelopeFor,
} from './types';
