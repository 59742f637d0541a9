import type { Channel, ConsumeMessage } from 'amqplib';
import type { Logger } from '../logger';
import type { Metrics } from '../observability/metrics';
import type { AmqpClient } from './amqp-client';
import { compileEventSchemas, eventProblems, InvalidEventError } from './event-schemas';
import { DOMAIN_EXCHANGE } from './topology';
import type { DomainEvent } from './events';
import { classifyFailure, type FailureKind } from './failure';
import type { Inbox } from './inbox';
import {
  PARKED_AT_HEADER,
  PARKED_REASON_HEADER,
  copyOptions,
  failureText,
  retryCountOf,
  type ParkedReason,
} from './republish';
import {
  DEFAULT_RETRY_POLICY,
  LAST_ERROR_HEADER,
  RETRY_COUNT_HEADER,
  backoffDelayMs,
  backoffDelays,
  type RetryPolicy,
} from './retry';
import {
  backoffQueueOf,
  consumerTopology,
  declareTopology,
  mergeTopologies,
  parkingQueueOf,
  type ConsumerQueue,
  type Topology,
} from './topology';

export interface ConsumerOptions<T> {
  client: AmqpClient;
  queue: ConsumerQueue;
  /** Name recorded in the inbox; defaults to the queue name. */
  consumer?: string;
  prefetch?: number;
  inbox?: Inbox;
  logger: Logger;
  metrics: Metrics;
  /** Back-off of failed handling; services pass `config.consumerRetry` (CONSUMER_RETRY_*). */
  retry?: RetryPolicy;
  /** How a handler failure is classified; default `classifyFailure` (decision 0041). */
  classify?: (err: unknown) => FailureKind;
  /**
   * Validates every message that arrives from `domain.events` against the schema of its routing key
   * (contracts/events, docs/events.md) before `parse`; one that does not match, or whose routing key has
   * no schema, is parked at once (reason `invalid`) and counted in `events_invalid_total{queue,type}`.
   * Default true; false only for the platform's own tests, which route made-up keys.
   */
  validateEvents?: boolean;
  /** Parses a message body; throwing parks the message at once (it can never succeed). */
  parse?: (body: unknown) => T;
  handle: (message: T, raw: ConsumeMessage) => Promise<void>;
  /**
   * What the queue relies on beyond its own declaration, declared before it: an exchange other than
   * `domain.events` that it is bound to, wait queues that dead-letter into it (the dispatcher's attempts).
   */
  requires?: Topology;
}

interface WatchedQueue {
  parking: string;
  backoff: string[];
}

const watched = new WeakMap<Metrics, Map<string, WatchedQueue>>();

/** Ready messages per queue, read from the broker; a queue not declared yet is left out. */
export async function readDepths(client: AmqpClient, names: string[]): Promise<Map<string, number>> {
  const depths = new Map<string, number>();
  if (!client.connected || names.length === 0) return depths;
  let ch = await client.channel().catch(() => undefined);
  try {
    for (const name of names) {
      if (!ch) break;
      try {
        depths.set(name, (await ch.checkQueue(name)).messageCount);
      } catch {
        // A missing queue closes the channel: carry on with a new one.
        ch = await client.channel().catch(() => undefined);
      }
    }
  } finally {
    await ch?.close().catch(() => undefined);
  }
  return depths;
}

/**
 * Gauges read from the broker at scrape time, per consumer queue of the process:
 * `amqp_consumer_lag_messages{queue}` (ready in the queue), `amqp_parked_messages{queue}` (in its
 * parking queue: the chart alerts on it) and `amqp_backoff_messages{queue}` (waiting for redelivery).
 */
export function watchQueueDepth(
  metrics: Metrics,
  client: AmqpClient,
  queueName: string,
  policy: RetryPolicy = DEFAULT_RETRY_POLICY,
): void {
  const queues = watched.get(metrics) ?? new Map<string, WatchedQueue>();
  watched.set(metrics, queues);
  queues.set(queueName, {
    parking: parkingQueueOf(queueName),
    backoff: backoffDelays(policy).map((ms) => backoffQueueOf(queueName, ms)),
  });
  metrics.gauge('amqp_consumer_lag_messages', 'Messages ready in a consumer queue', ['queue'], async function () {
    const depths = await readDepths(client, [...queues.keys()]);
    for (const [q, n] of depths) this.set({ queue: q }, n);
  });
  metrics.gauge(
    'amqp_parked_messages',
    'Messages in the parking queue of a consumer queue',
    ['queue'],
    async function () {
      const entries = [...queues];
      const depths = await readDepths(
        client,
        entries.map(([, w]) => w.parking),
      );
      for (const [q, w] of entries) {
        const n = depths.get(w.parking);
        if (n !== undefined) this.set({ queue: q }, n);
      }
    },
  );
  metrics.gauge('amqp_backoff_messages', 'Messages waiting in back-off queues', ['queue'], async function () {
    const entries = [...queues];
    const depths = await readDepths(
      client,
      entries.flatMap(([, w]) => w.backoff),
    );
    for (const [q, w] of entries)
      this.set(
        { queue: q },
        w.backoff.reduce((sum, b) => sum + (depths.get(b) ?? 0), 0),
      );
  });
}

/** An ack or nack on a channel that may have closed meanwhile (the broker then redelivers anyway). */
function settle(op: () => void): void {
  try {
    op();
  } catch {
    // Channel closed: the unacknowledged message goes back to the queue by itself.
  }
}

/** The consumers of each client, as a shutdown stops them (decision 0216). */
const running = new WeakMap<AmqpClient, Set<(graceMs: number) => Promise<void>>>();

/**
 * Stops every consumer of the client: no new deliveries, the messages being handled get `graceMs` to
 * finish (and be acknowledged), then the consumers' channels close, so the broker hands what is still
 * unacknowledged to another consumer. Nothing is acknowledged that was not done.
 */
export async function stopConsumers(client: AmqpClient, graceMs: number): Promise<void> {
  await Promise.all([...(running.get(client) ?? [])].map((stop) => stop(graceMs)));
}

const within = (work: Promise<unknown>, ms: number) => {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([work, new Promise((resolve) => (timer = setTimeout(resolve, ms)))]).finally(() =>
    clearTimeout(timer),
  );
};

/** Why a delivery waits: another delivery of the same event holds the inbox claim. */
class ClaimedElsewhere extends Error {
  override readonly name = 'ClaimedElsewhere';
  constructor(leaseUntil: Date) {
    super(`another delivery of this event is being handled (claim held until ${leaseUntil.toISOString()} at most)`);
  }
}

/**
 * Manual acks with bounded prefetch on a quorum queue. With an inbox, each delivery claims its event
 * before the handler runs (decision 0113): an event already done is acknowledged without running the
 * handler again, and one being handled by another delivery waits in back-off. A failure is classified (decision 0041):
 * - poison (unparseable, refused by `parse`) or permanent: parked at once in `<queue>.parking`;
 * - transient or unknown: a copy goes to the back-off queue of the next delay with its failure count
 *   in `x-retry-count`, and the broker hands it back to this queue when the delay ends; the failure
 *   that would reach `retry.maxAttempts` parks it instead.
 * Every copy is confirmed by the broker before the original is acknowledged.
 */
export async function startConsumer<T = DomainEvent>(options: ConsumerOptions<T>): Promise<void> {
  const { client, queue, logger } = options;
  const consumer = options.consumer ?? queue.name;
  const policy = options.retry ?? DEFAULT_RETRY_POLICY;
  const classify = options.classify ?? classifyFailure;
  const handled = options.metrics.counter('amqp_messages_handled_total', 'Messages handled by consumers', [
    'queue',
    'outcome',
  ]);
  const invalid = options.metrics.counter(
    'events_invalid_total',
    'Events parked because they do not match the schema of their routing key',
    ['queue', 'type'],
  );
  const validateEvents = options.validateEvents ?? true;
  if (validateEvents) compileEventSchemas();
  watchQueueDepth(options.metrics, client, queue.name, policy);

  let stopping = false;
  let current: { ch: Channel; tag: string } | undefined;
  const handling = new Set<Promise<void>>();
  const consumers = running.get(client) ?? new Set();
  running.set(client, consumers);
  consumers.add(async (graceMs) => {
    stopping = true;
    const stopped = current;
    await stopped?.ch.cancel(stopped.tag).catch(() => undefined);
    await within(Promise.allSettled([...handling]), graceMs);
    // Still unacknowledged (a handler past the grace): the broker redelivers it once the channel closes.
    await stopped?.ch.close().catch(() => undefined);
  });

  await client.onConnect(async (ch: Channel) => {
    if (stopping) return;
    // The queue, its parking and back-off queues, from the one topology description (topology.ts).
    const own = consumerTopology(queue, policy);
    await declareTopology(ch, options.requires ? mergeTopologies(options.requires, own) : own);
    await ch.prefetch(options.prefetch ?? 20);
    const { consumerTag } = await ch.consume(queue.name, (msg) => {
      if (!msg) return;
      // Delivered while the cancel was on its way: given back untouched, for another consumer.
      if (stopping) return settle(() => ch.nack(msg, false, true));
      const handled = onMessage(ch, msg).catch(() => undefined);
      handling.add(handled);
      void handled.finally(() => handling.delete(handled));
    });
    current = { ch, tag: consumerTag };
  });

  async function onMessage(ch: Channel, msg: ConsumeMessage): Promise<void> {
    const failures = retryCountOf(msg);
    let parsed: T;
    try {
      const body = JSON.parse(msg.content.toString('utf8'));
      // Only a first delivery comes from domain.events with its routing key; a copy coming back from a
      // back-off queue (through the default exchange) passed this check on its way in.
      if (validateEvents && msg.fields.exchange === DOMAIN_EXCHANGE) {
        const problems = eventProblems(msg.fields.routingKey, body);
        if (problems.length) {
          invalid.inc({ queue: queue.name, type: msg.fields.routingKey });
          const eventId = typeof body?.id === 'string' ? body.id : String(msg.properties.messageId ?? '');
          await park(ch, msg, 'invalid', new InvalidEventError(msg.fields.routingKey, problems), failures, eventId);
          return;
        }
      }
      parsed = options.parse ? options.parse(body) : (body as T);
    } catch (err) {
      await park(ch, msg, 'poison', err, failures, String(msg.properties.messageId ?? ''));
      return;
    }
    const eventId = (parsed as { id?: string }).id ?? String(msg.properties.messageId ?? '');
    const inbox = eventId ? options.inbox : undefined;
    let token: string | undefined;
    try {
      if (inbox) {
        const claim = await inbox.claim(consumer, eventId);
        if (claim.kind === 'done') return settleAs(ch, msg, 'duplicate');
        // Another delivery of the event is being handled: look again after a back-off, when it has
        // ended (done: a no-op then; failed: this one handles it) or its lease has run out. Never
        // acknowledged as a duplicate: after a crash this is the original, finding its dead claim.
        if (claim.kind === 'busy')
          return await retryLater(ch, msg, 'transient', new ClaimedElsewhere(claim.leaseUntil), failures + 1, eventId);
        token = claim.token;
      }
      await options.handle(parsed, msg);
      if (inbox) await inbox.complete(consumer, eventId);
    } catch (err) {
      // Released so the redelivery can claim it; if this fails too, the lease expires instead.
      if (inbox && token) await inbox.release(consumer, eventId, token).catch(() => undefined);
      const kind = classify(err);
      if (kind === 'permanent') await park(ch, msg, 'permanent', err, failures + 1, eventId);
      else await retryLater(ch, msg, kind, err, failures + 1, eventId);
      return;
    }
    settleAs(ch, msg, 'ok');
  }

  function settleAs(ch: Channel, msg: ConsumeMessage, outcome: 'ok' | 'duplicate'): void {
    settle(() => ch.ack(msg));
    handled.inc({ queue: queue.name, outcome });
  }

  async function retryLater(
    ch: Channel,
    msg: ConsumeMessage,
    kind: FailureKind,
    err: unknown,
    failures: number,
    eventId: string,
  ): Promise<void> {
    if (failures >= policy.maxAttempts) return park(ch, msg, 'retries-exhausted', err, failures, eventId);
    const delayMs = backoffDelayMs(policy, failures);
    const log = { queue: queue.name, eventId, kind, failures, delayMs, err: failureText(err) };
    handled.inc({ queue: queue.name, outcome: 'retry' });
    try {
      await client.publish(
        '',
        backoffQueueOf(queue.name, delayMs),
        msg.content,
        copyOptions(msg, { [RETRY_COUNT_HEADER]: failures, [LAST_ERROR_HEADER]: failureText(err) }),
      );
    } catch (publishErr) {
      // The broker will not take the copy (disconnected, under an alarm): keep this delivery and hand
      // it back after the same delay; the queue's delivery limit is the backstop for this path.
      logger.warn({ ...log, publishErr: failureText(publishErr) }, 'handler failed; back-off queue unavailable');
      setTimeout(() => settle(() => ch.nack(msg, false, true)), delayMs).unref();
      return;
    }
    settle(() => ch.ack(msg));
    logger.warn(log, 'handler failed; redelivery delayed');
  }

  async function park(
    ch: Channel,
    msg: ConsumeMessage,
    reason: ParkedReason,
    err: unknown,
    failures: number,
    eventId: string,
  ): Promise<void> {
    handled.inc({ queue: queue.name, outcome: 'parked' });
    logger.error({ queue: queue.name, eventId, reason, failures, err: failureText(err) }, 'message parked');
    try {
      await client.publish(
        '',
        parkingQueueOf(queue.name),
        msg.content,
        copyOptions(msg, {
          [PARKED_REASON_HEADER]: reason,
          [PARKED_AT_HEADER]: new Date().toISOString(),
          [RETRY_COUNT_HEADER]: failures,
          [LAST_ERROR_HEADER]: failureText(err),
        }),
      );
      settle(() => ch.ack(msg));
    } catch {
      // The queue's own dead-letter route parks it instead (x-death reason `rejected`).
      settle(() => ch.nack(msg, false, false));
    }
  }
}
