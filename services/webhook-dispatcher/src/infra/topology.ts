import { EVENT_ROUTES, EVENT_ROUTING_KEYS } from '@travel/contracts';
import { mergeTopologies, presenceTopology, serviceTopology, type Consumers, type RetryPolicy } from '@travel/platform';
import { SERVICE } from '../config';
import { SPEC_SCHEDULE, parseSchedule, type Tier } from '../domain/schedule';
import { ATTEMPT_EXCHANGE, ATTEMPT_KEY, ATTEMPT_QUEUE, EVENTS_QUEUE, attemptTopology } from './queues';

/** The queues the dispatcher consumes, each declared here once (decision 0177). */
export const CONSUMERS = {
  /** The fan-out: the routing key of every public event type, from the contract's one list (docs/events.md). */
  events: { name: EVENTS_QUEUE, bindings: EVENT_ROUTING_KEYS.filter((k) => EVENT_ROUTES[k].webhook) },
  /** Attempts, queued by the fan-out and handed back by the wait queues (attemptTopology). */
  attempts: { name: ATTEMPT_QUEUE, exchange: ATTEMPT_EXCHANGE, bindings: [ATTEMPT_KEY], deliveryLimit: 10 },
} satisfies Consumers;

/**
 * What the dispatcher declares on the broker: its consumers, the attempt topology, under the spec's retry
 * schedule unless told otherwise, and the presence queue its replicas count each other on (decision 0220;
 * scripts/topology.ts renders it into the chart's definitions).
 */
export const topology = (policy: RetryPolicy, tiers: Tier[] = parseSchedule(SPEC_SCHEDULE)) =>
  mergeTopologies(serviceTopology(CONSUMERS, policy, attemptTopology(tiers)), presenceTopology(SERVICE));
