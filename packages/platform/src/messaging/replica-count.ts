import type { Channel } from 'amqplib';
import type { Logger } from '../logger';
import type { AmqpClient } from './amqp-client';
import { declareTopology, type Topology } from './topology';

/** The presence queue of a service: every live replica holds one consumer on it. */
export const presenceQueueOf = (service: string) => `${service}.presence`;

/**
 * The presence queue as topology, for the chart's definitions (scripts/topology.ts): durable and classic,
 * as nothing is ever stored in it.
 */
export const presenceTopology = (service: string): Topology => ({
  exchanges: [],
  queues: [{ name: presenceQueueOf(service), arguments: { 'x-queue-type': 'classic' } }],
  bindings: [],
  policies: [],
});

export interface ReplicaCountOptions {
  client: AmqpClient;
  /** The service whose replicas count each other (its presence queue). */
  service: string;
  /** How often the count is read from the broker, in ms: a replica joining or leaving is seen within it. */
  checkEveryMs: number;
  logger: Logger;
}

/**
 * How many replicas of a service are live, from the broker (docs/decisions/0220): each replica consumes
 * the service's presence queue (nothing is ever published to it) and reads the queue's consumer count every
 * `checkEveryMs`. The broker drops a consumer with its connection, so a replica that stops, crashes or is
 * killed leaves the count at once and the others see it at their next check; a broker round trip per
 * check is the whole cost, nothing per request or delivery.
 *
 * `joinedAt` is when this replica's consumer was last confirmed, and `othersAtJoin` whether the first
 * count after it already saw other replicas: a caller that takes a share of a global bound waits until
 * the others have seen it (their next check) before it takes its own. While the connection is down the
 * replica does not know and says so (`known` false): the others may already have taken its share.
 */
export class ReplicaCount {
  private replicas = 1;
  private channel?: Channel;
  private timer?: NodeJS.Timeout;
  private checking = false;
  joinedAt = 0;
  othersAtJoin = false;

  constructor(private readonly options: ReplicaCountOptions) {}

  /** Live replicas, this one included (1 until the first count). */
  get count(): number {
    return this.replicas;
  }

  /** Whether this replica is on the broker now and has counted since it (re)joined. */
  get known(): boolean {
    return this.options.client.connected && !!this.channel && this.joinedAt > 0;
  }

  /**
   * This replica's part of a whole-number bound held in total across replicas: ⌊total ÷ replicas⌋, at
   * least 1 (so with more replicas than `total` the bound is the replica count). 0 while the count is
   * unknown, and for `joinWaitMs` after joining replicas already there: they shrink their parts at their
   * next check and let the sends beyond them end first (the safe join).
   */
  shareOf(total: number, joinWaitMs: number): number {
    if (!this.known) return 0;
    if (this.othersAtJoin && Date.now() - this.joinedAt < joinWaitMs) return 0;
    return Math.max(1, Math.floor(total / this.replicas));
  }

  async start(): Promise<void> {
    const queue = presenceQueueOf(this.options.service);
    await this.options.client.onConnect(async (ch) => {
      this.joinedAt = 0;
      await declareTopology(ch, presenceTopology(this.options.service));
      await ch.consume(queue, () => undefined, { noAck: true });
      ch.on('close', () => {
        if (this.channel === ch) this.channel = undefined;
      });
      this.channel = ch;
      // Counted after the consumer is confirmed: of two replicas joining together, one sees the other.
      await this.read(ch);
      this.othersAtJoin = this.replicas > 1;
      this.joinedAt = Date.now();
    });
    this.timer = setInterval(() => void this.check(), this.options.checkEveryMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  private async read(ch: Channel): Promise<void> {
    const { consumerCount } = await ch.checkQueue(presenceQueueOf(this.options.service));
    this.replicas = Math.max(1, consumerCount);
  }

  private async check(): Promise<void> {
    const ch = this.channel;
    if (!ch || this.checking) return;
    this.checking = true;
    try {
      await this.read(ch);
    } catch (err) {
      // The channel closes with the error; the next connection opens a new one and counts again.
      this.options.logger.warn({ err: (err as Error).message }, 'replica count check failed');
    } finally {
      this.checking = false;
    }
  }
}
