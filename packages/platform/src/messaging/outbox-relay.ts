import type { mongo } from 'mongoose';

type Collection<T extends mongo.Document> = mongo.Collection<T>;
type Document = mongo.Document;
import { ROOT_CONTEXT, context, propagation } from '@opentelemetry/api';
import type { Logger } from '../logger';
import type { Metrics } from '../observability/metrics';
import { AmqpClient, PublishError } from './amqp-client';
import { toMessage, type OutboxEvent } from './events';
import { pendingDocuments, removeFromOutbox } from './outbox';
import { DOMAIN_EXCHANGE } from './topology';

export interface OutboxRelayOptions {
  client: AmqpClient;
  collections: Collection<Document>[];
  logger: Logger;
  metrics: Metrics;
  intervalMs?: number;
  batchSize?: number;
  /** Test seam: runs after the broker confirmed a publish and before removal (a crash point). */
  afterPublish?: (event: OutboxEvent) => Promise<void>;
}

/**
 * Publishes outbox events with publisher confirms, then removes them. A crash between the two
 * republishes on the next pass: at-least-once, with consumers de-duplicating by event id. Events of
 * one document go out in the order they were raised; a failure stops that document's batch so order holds.
 */
export class OutboxRelay {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private again = false;
  private stopped = true;
  private oldestPendingSeconds = 0;
  private readonly published;
  private readonly failures;

  constructor(private readonly options: OutboxRelayOptions) {
    const { metrics } = options;
    this.published = metrics.counter('outbox_published_total', 'Outbox events published and confirmed', ['type']);
    this.failures = metrics.counter('outbox_publish_failures_total', 'Outbox publishes that failed', ['reason']);
    const oldest = () => this.oldestPendingSeconds;
    metrics.gauge(
      'outbox_oldest_pending_seconds',
      'Age of the oldest unpublished outbox event seen on the last pass',
      [],
      function () {
        this.set(oldest());
      },
    );
  }

  start(): void {
    this.stopped = false;
    this.schedule(0);
  }

  /** Runs a pass now (called after a write, so events leave without waiting for the poll). */
  nudge(): void {
    if (this.stopped) return;
    if (this.running) this.again = true;
    else this.schedule(0);
  }

  private schedule(delay: number): void {
    if (this.stopped) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.pass(), delay);
  }

  private async pass(): Promise<void> {
    if (this.running || this.stopped) return;
    this.running = this.publishPending()
      .then(() => undefined)
      .catch((err) => this.options.logger.warn({ err: (err as Error).message }, 'outbox pass failed'))
      .finally(() => {
        this.running = undefined;
        const next = this.again ? 0 : (this.options.intervalMs ?? 500);
        this.again = false;
        this.schedule(next);
      });
    await this.running;
  }

  /** One pass over every collection; returns how many events were published. */
  async publishPending(): Promise<number> {
    let count = 0;
    let oldest = 0;
    for (const collection of this.options.collections) {
      const docs = await pendingDocuments(collection, this.options.batchSize ?? 100);
      for (const doc of docs) {
        const events = Object.values((doc.outbox ?? {}) as Record<string, OutboxEvent>).sort(
          (a, b) => a.occurredAt.localeCompare(b.occurredAt) || a.seq - b.seq,
        );
        for (const event of events) {
          oldest = Math.max(oldest, (Date.now() - Date.parse(event.occurredAt)) / 1000);
          if (!(await this.publishOne(event))) break;
          await this.options.afterPublish?.(event);
          await removeFromOutbox(collection, doc._id, event.id);
          count++;
        }
      }
    }
    this.oldestPendingSeconds = count > 0 ? 0 : oldest;
    return count;
  }

  private async publishOne(event: OutboxEvent): Promise<boolean> {
    const parent = propagation.extract(ROOT_CONTEXT, event.trace ?? {});
    try {
      await context.with(parent, () =>
        this.options.client.publish(DOMAIN_EXCHANGE, event.routingKey, Buffer.from(JSON.stringify(toMessage(event))), {
          messageId: event.id,
          type: event.type,
          contentType: 'application/json',
          timestamp: Math.floor(Date.parse(event.occurredAt) / 1000),
          headers: { 'x-tenant-id': event.tenantId },
        }),
      );
      this.published.inc({ type: event.type });
      return true;
    } catch (err) {
      const reason = err instanceof PublishError ? err.reason : 'error';
      this.failures.inc({ reason });
      this.options.logger.warn({ eventId: event.id, type: event.type, reason }, 'outbox publish failed; will retry');
      return false;
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }
}
