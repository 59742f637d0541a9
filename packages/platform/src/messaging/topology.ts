import type { Channel } from 'amqplib';
import { ANNOUNCED_EVENTS } from '@travel/contracts';
import { backoffDelays, delayLabel, type RetryPolicy } from './retry';

// The broker topology of the platform as one description: data (`Topology`) built by the functions
// below, declared from that data by the services at boot (and again after a reconnect; every declaration
// is idempotent), and rendered by `scripts/topology.ts` into the chart's RabbitMQ definitions
// (charts/travel-expense/files/rabbitmq-topology.json, checked for drift by `npm test`). Queue arguments
// can't change on an existing queue, so the definitions imported into a broker and the services'
// declarations must agree exactly: both come from here.
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

/**
 * Events announced for a consumer not built yet (`ANNOUNCED_EVENTS`, decision 0186) wait here rather than
 * in the parking of unroutable events, which alerts. Bounded: the oldest go once 10,000 wait.
 */
export const ANNOUNCEMENTS_QUEUE = 'domain.announcements';
export const ANNOUNCEMENTS_MAX = 10_000;

/**
 * One consumer's queue, declared once (in its service's `src/infra/topology.ts`, decision 0177): the
 * consumer is started with it and the chart's definitions are rendered from it.
 */
export interface ConsumerQueue {
  /** Queue name: `<service>.<purpose>`. */
  name: string;
  /** The exchange the bindings are on; default `domain.events`. */
  exchange?: string;
  /** Routing-key patterns on the exchange, e.g. `employees.employee.*` on `domain.events`. */
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

export type QueueArguments = Record<string, string | number>;

/** Exchanges, queues and bindings (all durable), and broker policies, as the services declare them. */
export interface Topology {
  exchanges: { name: string; type: 'topic' | 'direct' | 'fanout' }[];
  queues: { name: string; arguments: QueueArguments }[];
  /** From the `source` exchange to `queue`, with a routing key (pattern on a topic exchange). */
  bindings: { source: string; queue: string; routingKey: string }[];
  /**
   * Policies can't be declared over AMQP: the definitions import (or an operator) sets them. A service
   * works without them; what they add is described where they are built.
   */
  policies: (typeof UNROUTABLE_POLICY)[];
}

const QUORUM = { 'x-queue-type': 'quorum' } as const;

/** One topology out of several; a name declared twice must be declared the same way. */
export function mergeTopologies(...parts: Topology[]): Topology {
  const out: Topology = { exchanges: [], queues: [], bindings: [], policies: [] };
  const keyed = <T>(list: T[], item: T, key: (t: T) => string) => {
    const existing = list.find((t) => key(t) === key(item));
    if (!existing) list.push(item);
    else if (JSON.stringify(existing) !== JSON.stringify(item))
      throw new Error(`topology: ${key(item)} is declared two different ways`);
  };
  for (const part of parts) {
    for (const e of part.exchanges) keyed(out.exchanges, e, (x) => `exchange ${x.name}`);
    for (const q of part.queues) keyed(out.queues, q, (x) => `queue ${x.name}`);
    for (const b of part.bindings) keyed(out.bindings, b, (x) => `binding ${x.source} ${x.queue} ${x.routingKey}`);
    for (const p of part.policies) keyed(out.policies, p, (x) => `policy ${x.name}`);
  }
  return out;
}

/**
 * `domain.events`, its alternate exchange with the parking queue of unroutable events, and the queue of
 * announced events.
 */
export const domainTopology = (): Topology => ({
  exchanges: [
    { name: UNROUTABLE_EXCHANGE, type: 'fanout' },
    { name: DOMAIN_EXCHANGE, type: 'topic' },
  ],
  queues: [
    { name: UNROUTABLE_PARKING_QUEUE, arguments: { ...QUORUM } },
    {
      name: ANNOUNCEMENTS_QUEUE,
      arguments: { ...QUORUM, 'x-max-length': ANNOUNCEMENTS_MAX, 'x-overflow': 'drop-head' },
    },
  ],
  bindings: [
    { source: UNROUTABLE_EXCHANGE, queue: UNROUTABLE_PARKING_QUEUE, routingKey: '' },
    ...ANNOUNCED_EVENTS.map((routingKey) => ({ source: DOMAIN_EXCHANGE, queue: ANNOUNCEMENTS_QUEUE, routingKey })),
  ],
  policies: [UNROUTABLE_POLICY],
});

/** A quorum queue bound to its exchange, whose poison messages dead-letter into `<name>.parking`. */
export const consumerQueueTopology = (spec: ConsumerQueue, exchange = spec.exchange ?? DOMAIN_EXCHANGE): Topology => ({
  exchanges: [],
  queues: [
    { name: parkingQueueOf(spec.name), arguments: { ...QUORUM } },
    {
      name: spec.name,
      arguments: {
        ...QUORUM,
        'x-delivery-limit': spec.deliveryLimit ?? 5,
        'x-dead-letter-exchange': '',
        'x-dead-letter-routing-key': parkingQueueOf(spec.name),
      },
    },
  ],
  bindings: spec.bindings.map((routingKey) => ({ source: exchange, queue: spec.name, routingKey })),
  policies: [],
});

/**
 * One back-off queue per delay of the policy. Nothing consumes them: a message waits there for the
 * queue's TTL, then the broker dead-letters it through the default exchange back to `queue` itself
 * (never to `domain.events`, which would hand it to every other consumer again). Quorum, at-least-once
 * dead-lettering, so a waiting message survives a broker restart and is not dropped on its way back.
 */
export const backoffTopology = (queue: string, policy: RetryPolicy): Topology => ({
  exchanges: [],
  queues: backoffDelays(policy).map((ms) => ({
    name: backoffQueueOf(queue, ms),
    arguments: {
      ...QUORUM,
      'x-message-ttl': ms,
      'x-dead-letter-exchange': '',
      'x-dead-letter-routing-key': queue,
      'x-dead-letter-strategy': 'at-least-once',
      'x-overflow': 'reject-publish',
    },
  })),
  bindings: [],
  policies: [],
});

/** Everything a consumer of `spec` relies on (besides its exchange, if not `domain.events`): what `startConsumer` declares. */
export const consumerTopology = (spec: ConsumerQueue, policy: RetryPolicy): Topology =>
  mergeTopologies(domainTopology(), consumerQueueTopology(spec), backoffTopology(spec.name, policy));

/** The consumers of one service, by purpose: each queue declared once (decision 0177). */
export type Consumers = Readonly<Record<string, ConsumerQueue>>;

/**
 * What a service declares on the broker: `domain.events` (every service publishes there), each of its
 * consumers with its back-off queues, and `extra` (what its consumers rely on beyond that, e.g. the
 * dispatcher's attempt exchange and wait queues). A consuming service exports it as `topology` from its
 * `src/infra/topology.ts`, which `scripts/topology.ts` finds by the registry of services.
 */
export const serviceTopology = (consumers: Consumers, policy: RetryPolicy, ...extra: Topology[]): Topology =>
  mergeTopologies(...Object.values(consumers).map((c) => consumerTopology(c, policy)), ...extra);

/** Declares exchanges, then queues, then bindings (policies are the definitions' part, see `Topology`). */
export async function declareTopology(ch: Channel, topology: Topology): Promise<void> {
  for (const e of topology.exchanges) await ch.assertExchange(e.name, e.type, { durable: true });
  for (const q of topology.queues) await ch.assertQueue(q.name, { durable: true, arguments: q.arguments });
  for (const b of topology.bindings) await ch.bindQueue(b.queue, b.source, b.routingKey);
}

export const declareDomainExchange = (ch: Channel): Promise<void> => declareTopology(ch, domainTopology());

export const declareConsumerQueue = (ch: Channel, spec: ConsumerQueue): Promise<void> =>
  declareTopology(ch, consumerQueueTopology(spec));

export const declareBackoffQueues = (ch: Channel, queue: string, policy: RetryPolicy): Promise<void> =>
  declareTopology(ch, backoffTopology(queue, policy));

/** The topology in RabbitMQ's definitions format (`rabbitmqadmin import`, `load_definitions`), without vhost. */
export function rabbitDefinitions(topology: Topology) {
  return {
    exchanges: topology.exchanges.map((e) => ({
      name: e.name,
      type: e.type,
      durable: true,
      auto_delete: false,
      internal: false,
      arguments: {},
    })),
    queues: topology.queues.map((q) => ({ name: q.name, durable: true, auto_delete: false, arguments: q.arguments })),
    bindings: topology.bindings.map((b) => ({
      source: b.source,
      destination: b.queue,
      destination_type: 'queue',
      routing_key: b.routingKey,
      arguments: {},
    })),
    policies: topology.policies.map((p) => ({ ...p, definition: { ...p.definition } })),
  };
}
