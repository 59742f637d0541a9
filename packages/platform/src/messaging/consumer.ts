import type { Channel, ConsumeMessage } from 'amqplib';
import type { Logger } from '../logger';
import type { Metrics } from '../observability/metrics';
import type { AmqpClient } from './amqp-client';
import type { DomainEvent } from './events';
import type { Inbox } from './inbox';
import { declareConsumerQueue, declareDomainExchange, type ConsumerQueue } from './topology';

export interface ConsumerOptions<T> {
  client: AmqpClient;
  queue: ConsumerQueue;
  /** Name recorded in the inbox; defaults to the queue name. */
  consumer?: string;
  prefetch?: number;
  inbox?: Inbox;
  logger: Logger;
  metrics: Metrics;
  /** Parses a message body; throwing parks the message at once (it can never succeed). */
  parse?: (body: unknown) => T;
  handle: (message: T, raw: ConsumeMessage) => Promise<void>;
  /** Declares the queue and its bindings; default: bound to `domain.events` with `queue.bindings`. */
  declare?: (ch: Channel) => Promise<void>;
}

const watched = new WeakMap<Metrics, Set<string>>();

/** `amqp_consumer_lag_messages{queue}`: messages waiting in a consumer's queue, read at scrape time. */
export function watchQueueDepth(metrics: Metrics, client: AmqpClient, queueName: string): void {
  const queues = watched.get(metrics) ?? new Set<string>();
  watched.set(metrics, queues);
  queues.add(queueName);
  metrics.gauge('amqp_consumer_lag_messages', 'Messages ready in a consumer queue', ['queue'], async function () {
    if (!client.connected) return;
    const ch = await client.channel().catch(() => undefined);
    if (!ch) return;
    try {
      for (const q of queues) this.set({ queue: q }, (await ch.checkQueue(q)).messageCount);
    } catch {
      // A queue not declared yet: nothing to report this scrape.
    } finally {
      await ch.close().catch(() => undefined);
    }
  });
}

/**
 * Manual acks with bounded prefetch on a quorum queue. A handler failure requeues the message; the
 * queue's delivery limit then parks a message that keeps failing. An event already in the inbox is
 * acknowledged without running the handler again.
 */
export async function startConsumer<T = DomainEvent>(options: ConsumerOptions<T>): Promise<void> {
  const { client, queue, logger } = options;
  const consumer = options.consumer ?? queue.name;
  const handled = options.metrics.counter('amqp_messages_handled_total', 'Messages handled by consumers', [
    'queue',
    'outcome',
  ]);
  watchQueueDepth(options.metrics, client, queue.name);

  await client.onConnect(async (ch: Channel) => {
    if (options.declare) await options.declare(ch);
    else {
      await declareDomainExchange(ch);
      await declareConsumerQueue(ch, queue);
    }
    await ch.prefetch(options.prefetch ?? 20);
    await ch.consume(queue.name, (msg) => {
      if (msg) void onMessage(ch, msg);
    });
  });

  async function onMessage(ch: Channel, msg: ConsumeMessage): Promise<void> {
    let parsed: T;
    try {
      const body = JSON.parse(msg.content.toString('utf8'));
      parsed = options.parse ? options.parse(body) : (body as T);
    } catch (err) {
      logger.error({ queue: queue.name, err: (err as Error).message }, 'unparseable message parked');
      handled.inc({ queue: queue.name, outcome: 'parked' });
      ch.nack(msg, false, false);
      return;
    }
    const eventId = (parsed as { id?: string }).id ?? String(msg.properties.messageId ?? '');
    try {
      if (options.inbox && eventId && (await options.inbox.seen(consumer, eventId))) {
        handled.inc({ queue: queue.name, outcome: 'duplicate' });
        ch.ack(msg);
        return;
      }
      await options.handle(parsed, msg);
      if (options.inbox && eventId) await options.inbox.record(consumer, eventId);
      handled.inc({ queue: queue.name, outcome: 'ok' });
      ch.ack(msg);
    } catch (err) {
      logger.warn({ queue: queue.name, eventId, err: (err as Error).message }, 'handler failed; message requeued');
      handled.inc({ queue: queue.name, outcome: 'retry' });
      try {
        ch.nack(msg, false, true);
      } catch {
        // Channel already closed: the broker redelivers the unacked message anyway.
      }
    }
  }
}
