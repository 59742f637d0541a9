import type { mongo } from 'mongoose';

type Collection<T extends mongo.Document> = mongo.Collection<T>;
type Document = mongo.Document;
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, context, propagation, trace } from '@opentelemetry/api';
import type { Logger } from '../logger';
import type { Metrics } from '../observability/metrics';
import { AmqpClient, PublishError } from './amqp-client';
import { toMessage, type OutboxEvent } from './events';
import { readDepths } from './consumer';
import { REMOVALS_PER_COMMAND, pendingDocuments, removeFromOutbox, type PublishedEvent } from './outbox';
import type { WrittenDocument } from './outbox-nudge';
import { DOMAIN_EXCHANGE, UNROUTABLE_EXCHANGE, UNROUTABLE_PARKING_QUEUE } from './topology';

export interface OutboxRelayOptions {
  client: AmqpClient;
  collections: Collection<Document>[];
  logger: Logger;
  metrics: Metrics;
  intervalMs?: number;
  batchSize?: number;
  /** Documents published at once within a pass (each document's own events stay in order). */
  concurrency?: number;
  /**
   * How old a document's oldest event must be before this relay publishes it although its own replica
   * did not write it (decision 0243); `OUTBOX_ADOPT_AFTER_MS` unless given. 0: every pending document.
   */
  adoptAfterMs?: number;
}

/**
 * Another replica's pending document is left to that replica's relay for this long after its oldest event
 * was raised: that relay, nudged by the write, publishes it within milliseconds; this one adopts it only if
 * that replica stopped or cannot get through (decision 0243).
 */
export const OUTBOX_ADOPT_AFTER_MS = 5_000;

/** Fetches per pass and collection before the removals (each of up to `batchSize` new documents). */
const ROUNDS = 5;

/** The longest wait between failing passes (the broker client's own reconnect backs off to 5 s too). */
export const RELAY_MAX_BACKOFF_MS = 5_000;

/** The wait after `failedPasses` failing passes in a row: the interval, doubled each time, up to the cap. */
export const relayDelayAfter = (failedPasses: number, intervalMs: number): number =>
  failedPasses === 0 ? intervalMs : Math.min(RELAY_MAX_BACKOFF_MS, intervalMs * 2 ** (failedPasses - 1));

/** The publishes of one pass that failed: how many, by reason, and the first event (for the log line). */
interface PassFailures {
  count: number;
  reasons: Record<string, number>;
  firstEventId?: string;
}

const tracer = trace.getTracer('outbox-relay');

/** A document a pass found with events still in its outbox, oldest first. */
interface PendingDocument {
  doc: Document;
  events: OutboxEvent[];
}

const eventsOf = (doc: Document): OutboxEvent[] =>
  Object.values((doc.outbox ?? {}) as Record<string, OutboxEvent>).sort(
    (a, b) => a.occurredAt.localeCompare(b.occurredAt) || a.seq - b.seq,
  );

/**
 * Publishes outbox events with publisher confirms, then removes them. A crash between the two
 * republishes on the next pass: at-least-once, with consumers de-duplicating by event id. Events of
 * one document go out in the order they were raised; a failure stops that document's batch so order holds.
 * The documents a pass fetched go oldest event first (decision 0063). An event no queue is bound for
 * goes to `domain.unroutable` (the alternate exchange, decision 0062) and is done, so it never holds
 * up the others; where the broker lacks the alternate-exchange policy, the relay parks it there itself.
 */
export class OutboxRelay {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private again = false;
  private stopped = true;
  /** Passes in a row with a failed publish or a failed store read: the next waits longer (0183). */
  private failedPasses = 0;
  private passFailures: PassFailures = { count: 0, reasons: {} };
  /** `occurredAt` (epoch ms) of the oldest event left pending by the last pass; undefined: none. */
  private oldestPendingAt?: number;
  private readonly published;
  private readonly failures;
  private readonly parkedByRelay;
  private readonly removedFirstByAnother;
  /** Documents this replica wrote events into, by collection name: id → when noted (epoch ms). */
  private readonly written = new Map<string, Map<string, number>>();

  constructor(private readonly options: OutboxRelayOptions) {
    const { metrics } = options;
    this.published = metrics.counter('outbox_published_total', 'Outbox events published and confirmed', ['type']);
    this.failures = metrics.counter('outbox_publish_failures_total', 'Outbox publishes that failed', ['reason']);
    this.parkedByRelay = metrics.counter(
      'outbox_unroutable_parked_by_relay_total',
      'Unroutable events the relay parked itself because domain.events has no alternate exchange (policy missing)',
      ['type'],
    );
    this.removedFirstByAnother = metrics.counter(
      'outbox_published_twice_total',
      'Events this relay published that another relay had already published and removed: a second copy went out (consumers drop it as a duplicate)',
      [],
    );
    // The age grows between passes: a relay that cannot get through shows it, rather than a stale figure.
    const oldest = () => this.oldestPendingAt;
    metrics.gauge(
      'outbox_oldest_pending_seconds',
      'Age of the oldest outbox event still unpublished after the last pass (0 when none)',
      [],
      function () {
        const at = oldest();
        this.set(at === undefined ? 0 : Math.max(0, (Date.now() - at) / 1000));
      },
    );
    const client = options.client;
    metrics.gauge(
      'outbox_unroutable_parked_messages',
      `Events in ${UNROUTABLE_PARKING_QUEUE}: published while no queue was bound for their routing key`,
      [],
      async function () {
        const depth = (await readDepths(client, [UNROUTABLE_PARKING_QUEUE])).get(UNROUTABLE_PARKING_QUEUE);
        if (depth !== undefined) this.set(depth);
      },
    );
  }

  start(): void {
    this.stopped = false;
    this.schedule(0);
  }

  /**
   * Runs a pass now (called after a write, so events leave without waiting for the poll), and notes the
   * document written as this replica's to publish at once (0243). While passes fail, a write does not cut
   * the wait short unless the broker is connected again: each write of an outage would otherwise run a
   * pass that fails.
   */
  nudge(written?: WrittenDocument): void {
    // Noted even before start: a pass will find it this replica's. Deleted first, so the notes stay in the
    // order they were made and a pass drops the expired ones from the front.
    if (written) {
      const mine = this.writtenIn(written.collection);
      mine.delete(String(written.id));
      mine.set(String(written.id), Date.now());
    }
    if (this.stopped) return;
    if (this.failedPasses > 0 && !this.options.client.connected) return;
    if (this.running) this.again = true;
    else this.schedule(0);
  }

  private schedule(delay: number): void {
    if (this.stopped) return;
    clearTimeout(this.timer);
    // A timer set from a request's nudge would carry that request's trace into this pass and every one
    // after it: each pass runs in no trace, each event in its own (publishOne).
    this.timer = setTimeout(() => context.with(ROOT_CONTEXT, () => void this.pass()), delay);
  }

  private async pass(): Promise<void> {
    if (this.running || this.stopped) return;
    this.passFailures = { count: 0, reasons: {} };
    this.running = this.publishPending()
      .then(() => this.passEnded())
      .catch((err) => this.passEnded(err as Error))
      .finally(() => {
        this.running = undefined;
        const next = this.again && this.failedPasses === 0 ? 0 : relayDelayAfter(this.failedPasses, this.interval);
        this.again = false;
        this.schedule(next);
      });
    await this.running;
  }

  private get interval(): number {
    return this.options.intervalMs ?? 500;
  }

  /**
   * One line per failing pass, not one per event (a broker outage at 10 writes/s made thousands), and a
   * line when publishing works again; the failures by reason stay in `outbox_publish_failures_total`.
   */
  private passEnded(error?: Error): void {
    const failures = this.passFailures;
    if (!error && failures.count === 0) {
      if (this.failedPasses > 0)
        this.options.logger.info({ failedPasses: this.failedPasses }, 'outbox publishing again');
      this.failedPasses = 0;
      return;
    }
    this.failedPasses += 1;
    const retryInMs = relayDelayAfter(this.failedPasses, this.interval);
    if (error) this.options.logger.warn({ err: error.message, retryInMs }, 'outbox pass failed');
    else
      this.options.logger.warn(
        { failed: failures.count, reasons: failures.reasons, firstEventId: failures.firstEventId, retryInMs },
        'outbox publishes failed; will retry',
      );
  }

  /** One pass over every collection; returns how many events were published. */
  async publishPending(): Promise<number> {
    const batchSize = this.options.batchSize ?? 100;
    let count = 0;
    let oldest: number | undefined;
    const stillPending = (event: OutboxEvent) => {
      const at = Date.parse(event.occurredAt);
      if (oldest === undefined || at < oldest) oldest = at;
    };
    for (const collection of this.options.collections) {
      const mine = this.writtenIn(collection.collectionName);
      const adoptBefore = Date.now() - (this.options.adoptAfterMs ?? OUTBOX_ADOPT_AFTER_MS);
      // A note older than the adoption delay is not needed: its document is anyone's by then.
      for (const [id, notedAt] of mine) {
        if (notedAt > adoptBefore) break;
        mine.delete(id);
      }
      // This replica's documents, and others' whose owner has left them too long (0243).
      const takes = (p: PendingDocument) =>
        mine.has(String(p.doc._id)) || Date.parse(p.events[0]!.occurredAt) <= adoptBefore;
      // Up to ROUNDS fetches before the removals: each round takes the next batch, past the documents
      // already handled in this pass (still pending until removed), so the events behind a batch are
      // not held up by the removals of the one before it.
      const handled = new Set<string>();
      const published: PublishedEvent[] = [];
      const finished: Array<{ id: string; fetchedAt: number }> = [];
      let failed: PromiseRejectedResult | undefined;
      for (let round = 0; round < ROUNDS && !failed; round++) {
        const limit = batchSize + handled.size;
        const fetchedAt = Date.now();
        const docs = await pendingDocuments(collection, limit);
        const fetched = docs
          .filter((doc) => !handled.has(String(doc._id)))
          .map((doc) => ({ doc, events: eventsOf(doc) }))
          .filter((p) => p.events.length > 0);
        if (fetched.length === 0) break;
        for (const p of fetched) handled.add(String(p.doc._id));
        const pending: PendingDocument[] = [];
        for (const p of fetched)
          if (takes(p)) pending.push(p);
          // Another replica's fresh document is its relay's: left, still pending (the lag gauge sees it).
          else stillPending(p.events[0]!);
        pending.sort((a, b) => a.events[0]!.occurredAt.localeCompare(b.events[0]!.occurredAt));
        // More may be waiting than this pass takes: go round again at once rather than after the interval
        // (not for a batch of others' documents only, which would spin until they are published).
        if (docs.length >= limit && pending.length > 0) this.again = true;
        // Documents are independent (order is kept within each one): several in flight at once, taken
        // oldest first, so their confirms overlap instead of costing one round trip each.
        let next = 0;
        const lane = async () => {
          for (let p = pending[next++]; p; p = pending[next++]) {
            let all = true;
            for (const event of p.events) {
              if (!(await this.publishOne(event))) {
                stillPending(event);
                all = false;
                break;
              }
              published.push({ docId: p.doc._id, eventId: event.id });
            }
            if (all) finished.push({ id: String(p.doc._id), fetchedAt });
          }
        };
        // Every lane finishes before the round ends (no publish outlives it); the first error ends the pass.
        const lanes = Array.from({ length: Math.min(this.options.concurrency ?? 16, pending.length) }, lane);
        failed = (await Promise.allSettled(lanes)).find((r): r is PromiseRejectedResult => r.status === 'rejected');
        if (docs.length < limit) break;
      }
      // Then the removals, of confirmed events only (a crash before publishes them again: at-least-once).
      // Apart from the publishes, so a store slow to write does not hold up the events behind them; a
      // command per REMOVALS_PER_COMMAND events rather than one per event (issue 36, decision 0240).
      const chunks = Array.from({ length: Math.ceil(published.length / REMOVALS_PER_COMMAND) }, (_, k) =>
        published.slice(k * REMOVALS_PER_COMMAND, (k + 1) * REMOVALS_PER_COMMAND),
      );
      let done = 0;
      const remover = async () => {
        for (let chunk = chunks[done++]; chunk; chunk = chunks[done++]) {
          const removed = await removeFromOutbox(collection, chunk);
          if (removed < chunk.length) this.removedFirstByAnother.inc(chunk.length - removed);
          count += chunk.length;
        }
      };
      await Promise.all(Array.from({ length: Math.min(4, chunks.length) }, remover));
      // Published and removed: no longer noted, unless noted again since the fetch that found it began (that
      // write's events may not have been in it; within the same millisecond, kept to be sure).
      for (const { id, fetchedAt } of finished) if ((mine.get(id) ?? Infinity) < fetchedAt) mine.delete(id);
      if (failed) throw failed.reason;
    }
    this.oldestPendingAt = oldest;
    return count;
  }

  private writtenIn(collection: string): Map<string, number> {
    let docs = this.written.get(collection);
    if (!docs) this.written.set(collection, (docs = new Map()));
    return docs;
  }

  /**
   * Publishes one event in the trace of the request that raised it (its W3C context, stored with it in
   * the outbox): a span `outbox relay <routing key>` there, whose publish carries that trace on to the
   * consumers in the message's `traceparent` header (docs/decisions/0164).
   */
  private publishOne(event: OutboxEvent): Promise<boolean> {
    const parent = propagation.extract(ROOT_CONTEXT, event.trace ?? {});
    const attributes = {
      'messaging.message.id': event.id,
      'messaging.rabbitmq.destination.routing_key': event.routingKey,
      'outbox.wait_ms': Math.max(0, Date.now() - Date.parse(event.occurredAt)),
    };
    return tracer.startActiveSpan(
      `outbox relay ${event.routingKey}`,
      { kind: SpanKind.INTERNAL, attributes },
      parent,
      (span) =>
        this.publishInSpan(event).then((ok) => {
          if (!ok) span.setStatus({ code: SpanStatusCode.ERROR, message: 'publish failed; retried on a later pass' });
          span.end();
          return ok;
        }),
    );
  }

  private async publishInSpan(event: OutboxEvent): Promise<boolean> {
    const send = (exchange: string) =>
      this.options.client.publish(exchange, event.routingKey, Buffer.from(JSON.stringify(toMessage(event))), {
        messageId: event.id,
        type: event.type,
        contentType: 'application/json',
        timestamp: Math.floor(Date.parse(event.occurredAt) / 1000),
        headers: { 'x-tenant-id': event.tenantId },
      });
    try {
      try {
        await send(DOMAIN_EXCHANGE);
        this.published.inc({ type: event.type });
      } catch (err) {
        if (!(err instanceof PublishError && err.reason === 'unroutable')) throw err;
        // Returned although unroutable events should reach the alternate exchange: the policy is missing
        // on this broker (docs/operations.md, runbook). Park it the same way, so it blocks nothing.
        await send(UNROUTABLE_EXCHANGE);
        this.parkedByRelay.inc({ type: event.type });
        this.options.logger.warn(
          { eventId: event.id, type: event.type, routingKey: event.routingKey, parkedIn: UNROUTABLE_PARKING_QUEUE },
          'unroutable event parked by the relay: domain.events has no alternate-exchange policy',
        );
      }
      return true;
    } catch (err) {
      const reason = err instanceof PublishError ? err.reason : 'error';
      this.failures.inc({ reason });
      const failures = this.passFailures;
      failures.count += 1;
      failures.reasons[reason] = (failures.reasons[reason] ?? 0) + 1;
      failures.firstEventId ??= event.id;
      this.options.logger.debug({ eventId: event.id, type: event.type, reason }, 'outbox publish failed');
      return false;
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }
}
