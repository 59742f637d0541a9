import type { Channel } from 'amqplib';
import { backoffDelays, delayLabel, type RetryPolicy } from './retry';

// The whole broker topology of the platform, declared in one place. Every declaration is idempotent,
// so every service declares what it touches at boot (and again after a reconnect).
export const DOMAIN_EXCHANGE = 'domain.events';

/**
 * The alternate exchange of `domain.events` (decision 0062): an event no queue is bound for (a context
 * not deployed yet) is routed here instead of being returned, and waits in `UNROUTABLE_PARKING_QUEUE`
 * with its routing key. The link is a broker policy (`UNROUTABLE_POLICY`), never an exchange argument:
 * arguments cannot change on an existing exchange, and every declaration of `domain.events` stays as is.
 */
export const UNROUTABLE_EXCHANGE = 'domain.unroutable';
export const UNROUTABLE_PARKING_QUEUE = 'domain.unroutable.parking';
export const UNROUTABLE_POLICY = {
  name: 'domain-events-alternate-exchange',
  pattern: '^domain\\.events$',
  'apply-to': 'exchanges',
  definition: { 'alternate-exchange': UNROUTABLE_EXCHANGE },
  priority: 0,
} as const;

export interface ConsumerQueue {
  /** Queue name: `<service>.<purpose>`. */
  name: string;
  /** Routing-key patterns on `domain.events`, e.g. `employees.employee.*`. */
  bindings: string[];
  /**
   * Deliveries before the broker parks a message. A backstop only: the consumer itself parks poison
   * messages and delays transient failures (a new message each time), so this is reached only by a
   * message whose handling crashes the process, or when the broker refuses the back-off publish.
   */
  deliveryLimit?: number;
}

export const parkingQueueOf = (queue: string): string => `${queue}.parking`;

/** The back-off queue of `queue` for one delay: `<queue>.backoff.<delay>`, e.g. `….events.backoff.4s`. */
export const backoffQueueOf = (queue: string, delayMs: number): string => `${queue}.backoff.${delayLabel(delayMs)}`;

/** `domain.events`, and its alternate exchange with the parking queue of unroutable events. */
export async function declareDomainExchange(ch: Channel): Promise<void> {
  await ch.assertExchange(UNROUTABLE_EXCHANGE, 'fanout', { durable: true });
  await ch.assertQueue(UNROUTABLE_PARKING_QUEUE, { durable: true, arguments: { 'x-queue-type': 'quorum' } });
  await ch.bindQueue(UNROUTABLE_PARKING_QUEUE, UNROUTABLE_EXCHANGE, '');
  await ch.assertExchange(DOMAIN_EXCHANGE, 'topic', { durable: true });
}

/** A quorum queue bound to domain events, whose poison messages dead-letter into `<name>.parking`. */
export async function declareConsumerQueue(
  ch: Channel,
  spec: ConsumerQueue,
  exchange = DOMAIN_EXCHANGE,
): Promise<void> {
  const parking = parkingQueueOf(spec.name);
  await ch.assertQueue(parking, { durable: true, arguments: { 'x-queue-type': 'quorum' } });
  await ch.assertQueue(spec.name, {
    durable: true,
    arguments: {
      'x-queue-type': 'quorum',
      'x-delivery-limit': spec.deliveryLimit ?? 5,
      'x-dead-letter-exchange': '',
      'x-dead-letter-routing-key': parking,
    },
  });
  for (const pattern of spec.bindings) await ch.bindQueue(spec.name, exchange, pattern);
}

/**
 * One back-off queue per delay of the policy. Nothing consumes them: a message waits there for the
 * queue's TTL, then the broker dead-letters it through the default exchange back to `queue` itself
 * (never to `domain.events`, which would hand it to every other consumer again). Quorum, at-least-once
 * dead-lettering, so a waiting message survives a broker restart and is not dropped on its way back.
 */
export async function declareBackoffQueues(ch: Channel, queue: string, policy: RetryPolicy): Promise<void> {
  for (const ms of backoffDelays(policy)) {
    await ch.assertQueue(backoffQueueOf(queue, ms), {
      durable: true,
      arguments: {
        'x-queue-type': 'quorum',
        'x-message-ttl': ms,
        'x-dead-letter-exchange': '',
        'x-dead-letter-routing-key': queue,
        'x-dead-letter-strategy': 'at-least-once',
        'x-overflow': 'reject-publish',
      },
    });
  }
}
