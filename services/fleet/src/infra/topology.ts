import { consumerTopology, type RetryPolicy } from '@travel/platform';
import { USAGE_QUEUE } from './usage-consumer';

/** What fleet declares on the broker (scripts/topology.ts renders it into the chart's definitions). */
export const fleetTopology = (policy: RetryPolicy) => consumerTopology(USAGE_QUEUE, policy);
