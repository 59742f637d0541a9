// The dispatcher's records as the API shows them (contracts/openapi.yaml): the one place a record becomes a body.
import { healthOf } from '../domain/health';
import { graceEndAt } from '../domain/secret-rotation';
import { schemeOf } from '../domain/signature-scheme';
import type { PayloadFilter } from '../domain/payload-filter';
import type { WithNewSecret } from '../app/subscriptions';
import type { SubscriptionDoc } from '../infra/repositories';

/** The subscription as the API shows it: never a secret; `previousSecretExpiresAt` while a replaced one still signs. */
export function toSubscriptionResponse(s: SubscriptionDoc) {
  return {
    id: s._id,
    url: s.url,
    eventTypes: s.eventTypes,
    filter: s.filter ? (JSON.parse(s.filter) as PayloadFilter) : null,
    signatureScheme: schemeOf(s),
    IsActive: s.isActive,
    DisabledAt: s.disabledAt ? s.disabledAt.toISOString() : null,
    DisabledReason: s.disabledReason ?? null,
    consecutiveExhausted: s.consecutiveExhausted ?? 0,
    createdAt: s.createdAt.toISOString(),
    previousSecretExpiresAt: graceEndAt(s, new Date()),
    health: healthOf(s),
  };
}

/** A created or rotated subscription: its body and, this once, its new signing secret. */
export const toSubscriptionWithSecret = ({ subscription, signingSecret }: WithNewSecret) => ({
  ...toSubscriptionResponse(subscription),
  signingSecret,
});
