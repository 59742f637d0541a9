import { sign } from '@travel/webhook-verify';
import {
  WEBHOOK_USER_AGENT,
  parseTenantId,
  type AmqpClient,
  type Logger,
  type Metrics,
  type TenantId,
} from '@travel/platform';
import type { Cidr } from '../domain/address-policy';
import { DISABLE_AFTER_EXHAUSTED, classify, statusAfter, type AttemptOutcome } from '../domain/outcome';
import { signingSecrets } from '../domain/secret-rotation';
import type { Tier } from '../domain/schedule';
import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { DestinationRefused, checkDestination, type CheckedDestination, type Resolve } from '../infra/destination';
import type { EnvelopeCache } from '../infra/envelope-cache';
import type { HttpsSender, SendResult } from '../infra/https-sender';
import type { DeliveryDoc, DispatcherRepositories, SubscriptionDoc } from '../infra/repositories';
import { deferLabel, enqueueAfter, type AttemptMessage } from '../infra/queues';
import type { OutcomeWriter } from '../infra/outcome-writer';
import type { SecretBox } from '../infra/secret-box';
import type { SubscriptionCache } from '../infra/subscription-cache';
import type { SubscriptionSlots } from './subscription-slots';
import { randomUUID } from 'node:crypto';
import { newDeliveryRow } from './new-delivery';

const tracer = trace.getTracer('webhook-dispatcher');

/** A first attempt sent from the fan-out: its row as recorded, and what follows once that row is written. */
export interface SentFirst {
  row: DeliveryDoc;
  done: () => Promise<void>;
}
/** Sends a claimed first attempt (its slot is taken: it must be called). */
export type SendFirst = () => Promise<SentFirst>;

/**
 * A first attempt sent from the fan-out that got no answer, or took longer than this, marks its partner
 * slow (0095). Well above a healthy answer on a busy replica, whose sends can queue for a socket.
 */
const SLOW_SEND_MS = 5000;
/** How long a slow partner's first attempts go through the queue. */
const SLOW_PARTNER_MS = 30_000;

/** What an attempt writes into its delivery row: the fields it sets and its line of the attempt log. */
function attemptRecord(m: AttemptMessage, outcome: AttemptOutcome, result: SendResult, tiers: Tier[]) {
  const now = new Date();
  const tier = tiers[m.attempt - 1];
  const token = randomUUID();
  return {
    set: {
      status: statusAfter(outcome),
      attemptsMade: m.attempt,
      lastStatusCode: result.statusCode ?? null,
      // The last attempt's answer, even when it had none (a network error): never an older one.
      responseBody: result.body ?? null,
      nextAttemptAt: outcome === 'retry' && tier ? new Date(now.getTime() + tier.ms) : null,
      updatedAt: now,
    },
    entry: {
      series: m.series,
      attempt: m.attempt,
      at: now,
      outcome,
      statusCode: result.statusCode ?? null,
      error: result.error ?? null,
      durationMs: result.durationMs,
      token,
    },
  };
}

/**
 * The delivery row of a fan-out's first attempt, from the message instead of the store (decision 0089): it
 * was written by the fan-out just before the message was queued, as Pending, series 1, nothing attempted.
 * Nothing else moves such a row before its first attempt is recorded (a manual retry needs Failed or
 * Exhausted and starts series 2), and the outcome is still a compare-and-set on those fields.
 */
function carried(m: AttemptMessage): DeliveryDoc | undefined {
  if (!m.first || !m.subscriptionId || m.attempt !== 1 || m.series !== 1) return undefined;
  const occurredAt = new Date(m.first.occurredAt);
  if (Number.isNaN(occurredAt.getTime())) return undefined;
  return newDeliveryRow({
    _id: m.deliveryId,
    tenantId: m.tenantId,
    subscriptionId: m.subscriptionId,
    eventId: m.first.eventId,
    eventType: m.first.eventType,
    occurredAt,
    nextAttemptAt: null,
    at: occurredAt,
  });
}

export interface AttemptDeps {
  repos: DispatcherRepositories;
  envelopes: EnvelopeCache;
  subscriptions: SubscriptionCache;
  outcomes: OutcomeWriter;
  amqp: AmqpClient;
  sender: HttpsSender;
  box: SecretBox;
  tiers: Tier[];
  allowedCidrs: Cidr[];
  /** Each subscription's share of the sends in flight (its bound, and short local waits). */
  slots: SubscriptionSlots;
  resolve?: Resolve;
  /** Most events at once that wait on first attempts sent from their fan-out (0095); 0: none. */
  maxEventsSending?: number;
  logger: Logger;
  metrics: Metrics;
}

/**
 * Runs one attempt message. Idempotent under redelivery: an attempt already recorded is not sent
 * again (its follow-up is re-queued if that was lost); an attempt whose send was not recorded (a crash
 * between the POST and the write) is sent again with the same event id and bytes.
 */
export class AttemptRunner {
  /** Subscriptions sent to only through the queue until then (0095). */
  private readonly slowUntil = new Map<string, number>();
  private eventsSending = 0;
  private readonly attemptsTotal;
  private readonly latency;
  private readonly disabledTotal;

  constructor(private readonly deps: AttemptDeps) {
    const m = deps.metrics;
    this.attemptsTotal = m.counter('webhook_delivery_attempts_total', 'Webhook delivery attempts by outcome', [
      'outcome',
      'event_type',
    ]);
    this.latency = m.histogram(
      'webhook_delivery_latency_seconds',
      'From the event being raised to a 2xx answer',
      ['event_type'],
      [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 30, 120, 600, 3600, 86400, 172800],
    );
    this.disabledTotal = m.counter(
      'webhook_subscriptions_disabled_total',
      'Subscriptions disabled after consecutive Exhausted deliveries',
    );
  }

  /**
   * `fresh`: the broker has not delivered this message before and no handling of it failed (not
   * redelivered, no retry count). Only then may a first attempt that carries its row's data skip reading
   * the row (docs/decisions/0089).
   */
  async run(m: AttemptMessage, fresh = false): Promise<void> {
    const { repos } = this.deps;
    // One slow partner must not take every worker slot: over its bound (and with no room to wait for a
    // slot here), the attempt waits a second in the broker, checked before any store read when the
    // message names its subscription.
    if (m.subscriptionId && this.deps.slots.saturated(m.subscriptionId)) {
      await this.defer(m, m.subscriptionId);
      return;
    }
    // The attempt message names its tenant; we wrote it (a trusted seam).
    const tenant = parseTenantId(m.tenantId);
    const delivery = (fresh && carried(m)) || (await repos.deliveries.of(tenant).get(m.deliveryId));
    if (!delivery || delivery.series !== m.series || delivery.status !== 'Pending') return;
    if (delivery.attemptsMade >= m.attempt) {
      if (delivery.attemptsMade === m.attempt) await this.scheduleNext(m);
      return;
    }
    const sub = await this.subscription(tenant, delivery.subscriptionId);
    if (!sub) return; // purged by retention with its deliveries
    if (sub.deletedAt || !sub.isActive) {
      const error = sub.deletedAt ? 'subscription was deleted' : 'subscription is disabled';
      await this.record(delivery, m, 'failed', { body: null, error, durationMs: 0 });
      return;
    }
    const payload = delivery.payload ?? (await this.envelope(delivery.eventId, tenant));
    if (payload === undefined) {
      await this.record(delivery, m, 'failed', { body: null, error: 'event no longer stored', durationMs: 0 });
      return;
    }
    if (!(await this.deps.slots.acquire(sub._id))) {
      await this.defer(m, sub._id);
      return;
    }
    let result: SendResult;
    try {
      result = await this.send(sub, delivery, payload);
    } finally {
      this.deps.slots.release(sub._id);
    }
    const refused = result.error?.startsWith('refused:');
    const outcome: AttemptOutcome = refused ? 'failed' : classify(result.statusCode, m.attempt);
    if (!(await this.record(delivery, m, outcome, result))) return;
    await this.recorded(sub, delivery, m, outcome);
  }

  /** What follows a recorded attempt: its metrics, the next attempt, the subscription's streak. */
  private async recorded(
    sub: SubscriptionDoc,
    delivery: DeliveryDoc,
    m: AttemptMessage,
    outcome: AttemptOutcome,
  ): Promise<void> {
    const { repos } = this.deps;
    this.attemptsTotal.inc({ outcome, event_type: delivery.eventType });
    if (outcome === 'retry') await this.scheduleNext(m);
    else if (outcome === 'succeeded') {
      // A recovered event was raised days ago: its age says nothing about how fast delivery is.
      if (!delivery.recovered) {
        this.latency.observe({ event_type: delivery.eventType }, (Date.now() - delivery.occurredAt.getTime()) / 1000);
      }
      // Only a write when there is a streak to break: a success is the common case and writes are costly.
      if (sub.consecutiveExhausted) {
        await repos.subscriptions
          .of(parseTenantId(sub.tenantId))
          .updateOne({ _id: sub._id, consecutiveExhausted: { $ne: 0 } }, { $set: { consecutiveExhausted: 0 } });
        this.deps.subscriptions.invalidate(sub.tenantId);
      }
    } else if (outcome === 'exhausted') await this.countExhausted(sub);
  }

  /**
   * Room for one more event to send first attempts from its fan-out: a release function (called once its
   * sends have ended), or undefined when enough events already wait on such sends (the rest of the event
   * prefetch stays free for the others, 0095).
   */
  holdEvent(): (() => void) | undefined {
    if (this.eventsSending >= (this.deps.maxEventsSending ?? 0)) return undefined;
    this.eventsSending++;
    let released = false;
    return () => {
      if (!released) this.eventsSending--;
      released = true;
    };
  }

  /**
   * Attempt 1 of a fresh event's new delivery row, to be sent from the fan-out (docs/decisions/0095): a
   * function that sends it, with the slot already taken, or undefined when it must be queued instead (no
   * free slot, a subscription slow of late, or one this process does not hold). The send resolves to the
   * row with its first attempt recorded in it, which the caller writes before calling `done`; the event
   * stays unacknowledged until then, so a crash re-runs the fan-out, which queues attempt 1 of every row
   * it does not find.
   */
  async claimFirst(tenant: TenantId, row: DeliveryDoc, payload: string): Promise<SendFirst | undefined> {
    if ((this.slowUntil.get(row.subscriptionId) ?? 0) > Date.now()) return undefined;
    const sub = await this.deps.subscriptions.get(tenant, row.subscriptionId);
    if (!sub || sub.deletedAt || !sub.isActive) return undefined;
    if (!(await this.deps.slots.acquireForEvent(sub._id))) return undefined;
    return () => this.sendFirst(sub, row, payload);
  }

  private async sendFirst(sub: SubscriptionDoc, row: DeliveryDoc, payload: string): Promise<SentFirst> {
    let result: SendResult;
    try {
      result = await this.send(sub, row, payload);
    } finally {
      this.deps.slots.release(sub._id);
    }
    // A partner that was slow or did not answer is not sent to from the fan-out for a while: its
    // attempts go through the queue, where they hold no event (0095).
    if (result.statusCode === undefined || result.durationMs > SLOW_SEND_MS) {
      this.slowUntil.set(sub._id, Date.now() + SLOW_PARTNER_MS);
      if (this.slowUntil.size > 10_000) this.forgetExpiredSlowness();
    }
    const m: AttemptMessage = {
      deliveryId: row._id,
      tenantId: row.tenantId,
      series: 1,
      attempt: 1,
      subscriptionId: sub._id,
    };
    const refused = result.error?.startsWith('refused:');
    const outcome: AttemptOutcome = refused ? 'failed' : classify(result.statusCode, 1);
    const { set, entry } = attemptRecord(m, outcome, result, this.deps.tiers);
    const recorded: DeliveryDoc = {
      ...row,
      ...set,
      totalAttempts: row.totalAttempts + 1,
      attemptLog: [...row.attemptLog, entry],
    };
    // `done` queues the next attempt once the row is written (a crash in between: the re-run fan-out
    // finds the row Pending and queues it again, app/fan-out.ts).
    return { row: recorded, done: () => this.recorded(sub, recorded, m, outcome) };
  }

  /** Queues the attempt after the recorded one of a Pending row (a fan-out re-run after a crash, 0095). */
  requeueNext(
    tenantId: string,
    row: Pick<DeliveryDoc, '_id' | 'series' | 'attemptsMade' | 'subscriptionId'>,
  ): Promise<void> {
    return this.scheduleNext({
      deliveryId: row._id,
      tenantId,
      series: row.series,
      attempt: row.attemptsMade,
      subscriptionId: row.subscriptionId,
    });
  }

  private forgetExpiredSlowness(): void {
    const now = Date.now();
    for (const [id, until] of this.slowUntil) if (until <= now) this.slowUntil.delete(id);
  }

  /** Over the bound: wait 1 s, or 10 s once deferred a few times in a row (infra/queues). */
  private defer(m: AttemptMessage, subscriptionId: string): Promise<void> {
    const deferrals = m.deferrals ?? 0;
    return enqueueAfter(this.deps.amqp, deferLabel(deferrals), { ...m, subscriptionId, deferrals: deferrals + 1 });
  }

  /**
   * The subscription from this process's cache of the tenant's subscriptions; one it does not hold yet
   * (registered through another replica since the cache was filled) is read again before it counts as gone.
   */
  private async subscription(tenantId: TenantId, id: string): Promise<SubscriptionDoc | undefined> {
    const cached = await this.deps.subscriptions.get(tenantId, id);
    if (cached) return cached;
    return (await this.deps.subscriptions.tenant(tenantId, Date.now())).get(id);
  }

  /** The event's stored bytes: from the cache when this process has them, else by `_id` from the store. */
  private async envelope(eventId: string, tenantId: TenantId): Promise<string | undefined> {
    const cached = this.deps.envelopes.get(eventId, tenantId);
    if (cached !== undefined) return cached;
    const doc = await this.deps.repos.envelopes.of(tenantId).get(eventId);
    if (doc) this.deps.envelopes.set(eventId, tenantId, doc.payload);
    return doc?.payload;
  }

  private async send(sub: SubscriptionDoc, delivery: DeliveryDoc, payload: string): Promise<SendResult> {
    let dest;
    try {
      dest = await checkDestination(sub.url, this.deps.allowedCidrs, this.deps.resolve);
    } catch (err) {
      // A destination that now resolves to a private address is refused for good; DNS trouble is retried.
      const prefix = err instanceof DestinationRefused ? 'refused: ' : 'dns: ';
      return { body: null, error: prefix + (err as Error).message, durationMs: 0 };
    }
    const body = Buffer.from(payload, 'utf8');
    // Every secret active now (both while a rotation's grace lasts, newest first), read at send time (0149).
    const secrets = signingSecrets(sub, new Date()).map((sealed) => this.deps.box.open(sealed));
    return tracer.startActiveSpan(
      'webhook POST',
      {
        kind: SpanKind.CLIENT,
        attributes: {
          'webhook.event_type': delivery.eventType,
          'webhook.delivery_id': delivery._id,
          'server.address': dest.url.hostname,
        },
      },
      async (span) => {
        try {
          const result = await this.post(dest, body, secrets, delivery);
          span.setAttribute('http.response.status_code', result.statusCode ?? 0);
          if (result.error) span.setStatus({ code: SpanStatusCode.ERROR, message: result.error });
          return result;
        } finally {
          span.end();
        }
      },
    );
  }

  private post(dest: CheckedDestination, body: Buffer, secrets: string[], delivery: DeliveryDoc): Promise<SendResult> {
    return this.deps.sender.send(dest, body, {
      'content-type': 'application/json; charset=utf-8',
      'user-agent': WEBHOOK_USER_AGENT,
      'svc-event': delivery.eventType,
      'svc-event-id': delivery.eventId,
      'svc-signature': sign(body, secrets, Math.floor(Date.now() / 1000)),
      'svc-delivery-id': delivery._id,
    });
  }

  /** Writes the attempt if nobody recorded it first; false when this attempt lost the race. */
  private async record(
    delivery: DeliveryDoc,
    m: AttemptMessage,
    outcome: AttemptOutcome,
    result: SendResult,
  ): Promise<boolean> {
    const { set, entry } = attemptRecord(m, outcome, result, this.deps.tiers);
    return this.deps.outcomes.write({
      deliveryId: delivery._id,
      token: entry.token,
      filter: {
        _id: delivery._id,
        tenantId: delivery.tenantId,
        series: m.series,
        attemptsMade: m.attempt - 1,
        status: 'Pending',
      },
      update: { $set: set, $inc: { totalAttempts: 1 }, $push: { attemptLog: entry } },
    });
  }

  /**
   * Queues the retry after a failed attempt. A retry waits up to days (the tiers), so it starts a trace of
   * its own, `webhook retry scheduled`, linked to the attempt before it, rather than growing the request's
   * trace for days (docs/decisions/0165).
   */
  private async scheduleNext(m: AttemptMessage): Promise<void> {
    const tier = this.deps.tiers[m.attempt - 1];
    if (!tier) return;
    const before = trace.getActiveSpan()?.spanContext();
    const attributes = {
      'webhook.delivery_id': m.deliveryId,
      'webhook.attempt': m.attempt + 1,
      'webhook.retry_tier': tier.label,
    };
    const links = before && trace.isSpanContextValid(before) ? [{ context: before }] : [];
    await tracer.startActiveSpan('webhook retry scheduled', { root: true, links, attributes }, async (span) => {
      try {
        await enqueueAfter(this.deps.amqp, tier.label, {
          ...m,
          attempt: m.attempt + 1,
          deferrals: undefined,
          first: undefined,
        });
      } finally {
        span.end();
      }
    });
  }

  private async countExhausted(sub: SubscriptionDoc): Promise<void> {
    const subscriptions = this.deps.repos.subscriptions.of(parseTenantId(sub.tenantId));
    const after = await subscriptions
      .findOneAndUpdate({ _id: sub._id }, { $inc: { consecutiveExhausted: 1 } }, { new: true })
      .lean();
    this.deps.subscriptions.invalidate(sub.tenantId);
    if (!after || after.consecutiveExhausted < DISABLE_AFTER_EXHAUSTED || !after.isActive) return;
    const disabled = await subscriptions.updateOne(
      { _id: sub._id, isActive: true },
      {
        $set: {
          isActive: false,
          disabledAt: new Date(),
          disabledReason: `${DISABLE_AFTER_EXHAUSTED} consecutive deliveries exhausted all 9 attempts`,
        },
      },
    );
    this.deps.subscriptions.invalidate(sub.tenantId);
    if (disabled.modifiedCount === 1) {
      this.disabledTotal.inc();
      this.deps.logger.warn({ subscriptionId: sub._id, tenantId: sub.tenantId }, 'webhook subscription disabled');
    }
  }
}
