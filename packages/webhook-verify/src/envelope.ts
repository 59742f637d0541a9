import { WebhookVerificationError } from './errors';
import { isEnvelopeId } from './event-id';
import type { WebhookEnvelope } from './types';

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Parses the already-authenticated body and checks the envelope shape. `data` is not validated
 * field by field: the DTOs are append-only, and a receiver should not break when a field is added.
 */
export function parseEnvelope(body: Buffer): WebhookEnvelope {
  const malformed = (why: string) => new WebhookVerificationError('MALFORMED_BODY', `Malformed body: ${why}`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    throw malformed('not JSON');
  }
  if (!isObject(parsed)) throw malformed('not a JSON object');
  const { id, type, createdAt, data } = parsed;
  if (typeof id !== 'string' || !isEnvelopeId(id)) throw malformed('id must be evt_ + 32 lowercase hex');
  // A type this SDK version does not know is still a valid event: the catalog grows by release, and a
  // receiver that answered 400 would mark a correctly signed delivery Failed for good.
  if (typeof type !== 'string' || !/^[a-z]+(\.[a-z]+)+$/.test(type))
    throw malformed('type must be an event type such as entry.approved');
  if (typeof createdAt !== 'string' || createdAt === '') throw malformed('createdAt must be a timestamp string');
  if (!isObject(data)) throw malformed('data must be an object');
  return parsed as unknown as WebhookEnvelope;
}
