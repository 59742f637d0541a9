import { consumerTopology, type RetryPolicy } from '@travel/platform';
import { READY_QUEUE } from './entry-changed-consumer';

/** What payouts declares on the broker (scripts/topology.ts renders it into the chart's definitions). */
export const payoutsTopology = (policy: RetryPolicy) => consumerTopology(READY_QUEUE, policy);
