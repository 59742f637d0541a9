import type { EventRoutingKey } from '@travel/contracts';
import { serviceTopology, type Consumers, type RetryPolicy } from '@travel/platform';

/** The queues receipts consumes, each declared here once (decision 0177). */
export const CONSUMERS = {
  /**
   * Stored attachments are queued for reading, removed ones dropped (0200). Cheap: the reading itself
   * runs from the fair queue in the collection, not in this consumer.
   */
  attachments: {
    name: 'receipts.attachments',
    bindings: ['entries.attachment.stored', 'entries.attachment.removed'] satisfies EventRoutingKey[],
  },
} satisfies Consumers;

/** What receipts declares on the broker (scripts/topology.ts renders it into the chart's definitions). */
export const topology = (policy: RetryPolicy) => serviceTopology(CONSUMERS, policy);
