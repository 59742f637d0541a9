import { trace } from '@opentelemetry/api';
import type { AmqpClient } from '@travel/platform';
import type { Tier } from '../domain/schedule';
import type { DeliveryDoc } from '../infra/repositories';
import { deferLabel, enqueueAfter, enqueueAttempt, type AttemptMessage } from '../infra/queues';

const tracer = trace.getTracer('webhook-dispatcher');

/** Which attempt of which delivery: what an attempt message names. */
type RowId = Pick<DeliveryDoc, '_id' | 'tenantId' | 'series' | 'subscriptionId'>;
export type AttemptOf = RowId & { attempt: number };

export const attemptOf = (row: RowId, attempt: number): AttemptOf => ({
  _id: row._id,
  tenantId: row.tenantId,
  series: row.series,
  subscriptionId: row.subscriptionId,
  attempt,
});

/**
 * Every attempt message the dispatcher queues: attempt 1 of a new row, the attempt after a recorded one,
 * and an attempt deferred because its subscription is at its bound. Both ways of sending use it.
 */
export class AttemptScheduler {
  constructor(
    private readonly amqp: AmqpClient,
    private readonly tiers: Tier[],
  ) {}

  /**
   * Attempt 1 of a row the fan-out has just written, carrying what the attempt needs of that row, so a
   * first-time message skips reading it (docs/decisions/0089).
   */
  first(
    row: Pick<DeliveryDoc, '_id' | 'tenantId' | 'subscriptionId' | 'eventId' | 'eventType' | 'occurredAt'>,
  ): Promise<void> {
    return enqueueAttempt(this.amqp, {
      deliveryId: row._id,
      tenantId: row.tenantId,
      series: 1,
      attempt: 1,
      subscriptionId: row.subscriptionId,
      first: { eventId: row.eventId, eventType: row.eventType, occurredAt: row.occurredAt.toISOString() },
    });
  }

  /**
   * Queues the attempt after `recorded` in its retry tier (none after the last). A retry waits up to days
   * (the tiers), so it starts a trace of its own, `webhook retry scheduled`, linked to the attempt before
   * it, rather than growing the request's trace for days (docs/decisions/0165).
   */
  async next(recorded: AttemptOf): Promise<void> {
    const tier = this.tiers[recorded.attempt - 1];
    if (!tier) return;
    const before = trace.getActiveSpan()?.spanContext();
    const attributes = {
      'webhook.delivery_id': recorded._id,
      'webhook.attempt': recorded.attempt + 1,
      'webhook.retry_tier': tier.label,
    };
    const links = before && trace.isSpanContextValid(before) ? [{ context: before }] : [];
    await tracer.startActiveSpan('webhook retry scheduled', { root: true, links, attributes }, async (span) => {
      try {
        await enqueueAfter(this.amqp, tier.label, {
          deliveryId: recorded._id,
          tenantId: recorded.tenantId,
          series: recorded.series,
          attempt: recorded.attempt + 1,
          subscriptionId: recorded.subscriptionId,
        });
      } finally {
        span.end();
      }
    });
  }

  /** Over the bound: wait 1 s, or 10 s once deferred a few times in a row (infra/queues). */
  defer(m: AttemptMessage, subscriptionId: string): Promise<void> {
    const deferrals = m.deferrals ?? 0;
    return enqueueAfter(this.amqp, deferLabel(deferrals), { ...m, subscriptionId, deferrals: deferrals + 1 });
  }
}
