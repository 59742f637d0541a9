import { presenceTopology } from '@travel/platform';
import { SERVICE } from '../config';

/**
 * What the gateway declares on the broker: only the presence queue its replicas count each other on, for
 * their shares of the limits (decision 0221; scripts/topology.ts renders it into the chart's definitions).
 */
export const topology = () => presenceTopology(SERVICE);
