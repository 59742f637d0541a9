import type { EventRoutingKey } from '@travel/contracts';
import { serviceTopology, type Consumers, type RetryPolicy } from '@travel/platform';

/** The queues entries consumes, each declared here once (decision 0177). */
export const CONSUMERS = {
  /** fleet's refusals of a vehicle use (an inbox makes a redelivery a no-op; a malformed one is parked). */
  usageRefused: {
    name: 'entries.vehicle-usage-refused',
    bindings: ['fleet.vehicle.usage-refused'] satisfies EventRoutingKey[],
  },
  /** The readings of receipts made by the receipts service, kept for GET …/attachments/{id}/reading (0200). */
  readings: {
    name: 'entries.receipt-readings',
    bindings: ['receipts.reading.made'] satisfies EventRoutingKey[],
  },
} satisfies Consumers;

/** What entries declares on the broker (scripts/topology.ts renders it into the chart's definitions). */
export const topology = (policy: RetryPolicy) => serviceTopology(CONSUMERS, policy);
