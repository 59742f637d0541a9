import type { Channel } from 'amqplib';

// The whole broker topology of the platform, declared in one place. Every declaration is idempotent,
// so every service declares what it touches at boot (and again after a reconnect).
export const DOMAIN_EXCHANGE = 'domain.events';

export interface ConsumerQueue {
  /** Queue name: `<service>.<purpose>`. */
  name: string;
  /** Routing-key patterns on `domain.events`, e.g. `employees.employee.*`. */
  bindings: string[];
  /** Deliveries before a message is parked (a handler that keeps failing must not loop). */
  deliveryLimit?: number;
}

export const parkingQueueOf = (queue: string): string => `${queue}.parking`;

export async function declareDomainExchange(ch: Channel): Promise<void> {
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
