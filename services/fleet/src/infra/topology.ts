import type { EventRoutingKey } from '@travel/contracts';
import { serviceTopology, type Consumers, type RetryPolicy } from '@travel/platform';

/** The queues fleet consumes, each declared here once (decision 0177). */
export const CONSUMERS = {
  /** The usage projection: the entries context's `vehicle.used` and `vehicle.released`. */
  usage: {
    name: 'fleet.vehicle-usage',
    bindings: ['entries.vehicle.used', 'entries.vehicle.released'] satisfies EventRoutingKey[],
  },
} satisfies Consumers;

/** What fleet declares on the broker (scripts/topology.ts renders it into the chart's definitions). */
export const topology = (policy: RetryPolicy) => serviceTopology(CONSUMERS, policy);
