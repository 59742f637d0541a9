// Receiving webhooks is the receiver SDK's job (packages/webhook-verify); the client hands it on so one
// package serves both directions.
export {
  verify as verifyWebhook,
  webhookMiddleware,
  MemoryDedupeStore,
  WebhookVerificationError,
  WEBHOOK_EVENT_TYPES,
  isWebhookEventType,
} from '@travel/webhook-verify';
export type {
  VerifyOptions,
  VerifiedWebhook,
  WebhookMiddlewareOptions,
  WebhookEventMeta,
  DedupeStore,
  WebhookEventType,
  WebhookEnvelope,
  TravelEntryWebhookDto,
  EmployeeWebhookDto,
} from '@travel/webhook-verify';
