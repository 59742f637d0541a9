import { consumerTopology, type RetryPolicy } from '@travel/platform';
import { USAGE_REFUSED_QUEUE } from './usage-refused-consumer';

/** What entries declares on the broker (scripts/topology.ts renders it into the chart's definitions). */
export const entriesTopology = (policy: RetryPolicy) => consumerTopology(USAGE_REFUSED_QUEUE, policy);
