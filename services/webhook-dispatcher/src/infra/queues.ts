import type { AmqpClient, Topology } from '@travel/platform';
import type { Tier } from '../domain/schedule';

// The dispatcher's own part of the topology (its consumers are declared in ./topology.ts). Attempts flow
// through a direct exchange that only the dispatcher uses; each retry tier is a wait queue whose per-queue
// TTL dead-letters back to that exchange (never to domain.events, which would fan the retry out to every
// consumer again).
export const ATTEMPT_EXCHANGE = 'webhook.attempts';
export const ATTEMPT_QUEUE = 'webhook-dispatcher.attempts';
export const ATTEMPT_KEY = 'attempt';
export const EVENTS_QUEUE = 'webhook-dispatcher.events';
/** Short wait for an attempt deferred because its subscription is at its concurrency bound. */
export const DEFER_LABEL = 'defer-1s';
const DEFER_MS = 1000;
/**
 * An attempt deferred this many times in a row waits 10 s instead (a partner that stays at its bound is
 * hanging or slow: its slots free at the pace of the time-out), so a hanging partner's backlog costs the
 * broker a tenth of the publishes (docs/decisions/0059).
 */
export const DEFER_LONG_LABEL = 'defer-10s';
const DEFER_LONG_MS = 10_000;
export const DEFERRALS_BEFORE_LONG = 3;
export const deferLabel = (deferralsSoFar: number): string =>
  deferralsSoFar >= DEFERRALS_BEFORE_LONG ? DEFER_LONG_LABEL : DEFER_LABEL;

export const waitQueueOf = (label: string): string => `webhook-dispatcher.wait.${label}`;

export interface AttemptMessage {
  deliveryId: string;
  tenantId: string;
  series: number;
  attempt: number;
  /**
   * The delivery's subscription, so an attempt over its subscription's in-flight bound is deferred before
   * any store read (docs/decisions/0059). Messages queued before it was added lack it.
   */
  subscriptionId?: string;
  /** Times this attempt was deferred in a row because its subscription was at its bound. */
  deferrals?: number;
  /**
   * What the first attempt of a fresh fan-out needs of its delivery row (docs/decisions/0089): with it, a
   * message handled for the first time is sent without reading the row it was queued for.
   */
  first?: FirstAttempt;
}

/** The delivery row as the fan-out wrote it: series 1, nothing attempted yet. */
export interface FirstAttempt {
  eventId: string;
  eventType: string;
  /** ISO 8601. */
  occurredAt: string;
}

/**
 * What the attempt queue relies on beyond its own declaration: the attempt exchange it is bound to, and
 * one wait queue per retry tier and per deferral, each dead-lettering into that exchange.
 */
export function attemptTopology(tiers: Tier[]): Topology {
  const waits = [...tiers, { label: DEFER_LABEL, ms: DEFER_MS }, { label: DEFER_LONG_LABEL, ms: DEFER_LONG_MS }];
  return {
    exchanges: [{ name: ATTEMPT_EXCHANGE, type: 'direct' }],
    queues: waits.map(({ label, ms }) => ({
      name: waitQueueOf(label),
      arguments: {
        'x-queue-type': 'quorum',
        'x-message-ttl': ms,
        'x-dead-letter-exchange': ATTEMPT_EXCHANGE,
        'x-dead-letter-routing-key': ATTEMPT_KEY,
        // Quorum queues dead-letter at-most-once unless told otherwise; a retry must not vanish.
        'x-dead-letter-strategy': 'at-least-once',
        'x-overflow': 'reject-publish',
      },
    })),
    bindings: [],
    policies: [],
  };
}

const attemptMessageId = (m: AttemptMessage) => `${m.deliveryId}:${m.series}:${m.attempt}`;

export function enqueueAttempt(client: AmqpClient, m: AttemptMessage): Promise<void> {
  return client.publish(ATTEMPT_EXCHANGE, ATTEMPT_KEY, Buffer.from(JSON.stringify(m)), {
    messageId: attemptMessageId(m),
    contentType: 'application/json',
  });
}

/** Parks an attempt in a wait queue; the broker hands it back to the attempt queue when its TTL ends. */
export function enqueueAfter(client: AmqpClient, label: string, m: AttemptMessage): Promise<void> {
  return client.publish('', waitQueueOf(label), Buffer.from(JSON.stringify(m)), {
    messageId: attemptMessageId(m),
    contentType: 'application/json',
  });
}
