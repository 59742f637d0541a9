import type { EventRoutingKey } from '@travel/contracts';
import { serviceTopology, type Consumers, type RetryPolicy } from '@travel/platform';

/** The queues employees consumes, each declared here once (decision 0177). */
export const CONSUMERS = {
  /** The company profile's enabled countries and currencies: reference-fx's allow-lists (0184). */
  allowLists: {
    name: 'employees.company-allow-lists',
    bindings: ['reference-fx.allow-list.updated'] satisfies EventRoutingKey[],
  },
} satisfies Consumers;

/** What employees declares on the broker (scripts/topology.ts renders it into the chart's definitions). */
export const topology = (policy: RetryPolicy) => serviceTopology(CONSUMERS, policy);
