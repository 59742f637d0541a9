import type { EventRoutingKey } from '@travel/contracts';
import { serviceTopology, type Consumers, type RetryPolicy } from '@travel/platform';

/** The queues payouts consumes, each declared here once (decision 0177). */
export const CONSUMERS = {
  /** The ready-for-payout projection. */
  ready: {
    name: 'payouts.ready-projection',
    bindings: ['entries.entry-state.changed'] satisfies EventRoutingKey[],
  },
} satisfies Consumers;

/** What payouts declares on the broker (scripts/topology.ts renders it into the chart's definitions). */
export const topology = (policy: RetryPolicy) => serviceTopology(CONSUMERS, policy);
