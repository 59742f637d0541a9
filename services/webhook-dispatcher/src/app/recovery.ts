import { randomUUID } from 'node:crypto';
import {
  AppError,
  invalidState,
  notFound,
  tenantOf,
  type AmqpClient,
  type CallerContext,
  type Logger,
  type TenantId,
} from '@travel/platform';
import { checkRecoverySince, eventsToRecover } from '../domain/recovery';
import type { DeliveryDoc, DispatcherRepositories, EnvelopeDoc, SubscriptionDoc } from '../infra/repositories';
import { enqueueAttempt } from '../infra/queues';
import type { SubscriptionCache } from '../infra/subscription-cache';
import { isBulkDuplicate } from './fan-out';
import { newDeliveryRow } from './new-delivery';
import { takesEvent } from './subscription-filter';

/** The `data` of a stored envelope (its exact bytes, `domain/envelope`). */
const dataOf = (payload: string | undefined): unknown =>
  payload ? (JSON.parse(payload) as { data?: unknown }).data : undefined;

const BATCH = 200;

type EnvelopeHead = Pick<EnvelopeDoc, '_id' | 'eventType' | 'occurredAt'> & Partial<Pick<EnvelopeDoc, 'payload'>>;

/**
 * `POST /webhooks/{id}/recover`: after an outage (auto-disable, delete, register again), re-sends to
 * the new, active subscription every stored event of its types raised since `since` that the tenant's
 * earlier subscriptions to the same URL did not deliver successfully. Each becomes a new delivery row
 * of this subscription (same event id, the stored bytes, signed afresh by the attempt runner).
 * Idempotent: an event this subscription already has a delivery of is not sent again, so a call that
 * answered 503 half-way, or one repeated later, sends only what is still missing (docs/decisions/0039).
 */
export class RecoveryApp {
  constructor(
    private readonly repos: DispatcherRepositories,
    private readonly amqp: AmqpClient,
    private readonly logger: Logger,
    private readonly subscriptionCache?: SubscriptionCache,
  ) {}

  async recover(caller: CallerContext, subscriptionId: string, sinceText: string) {
    const { errors, since } = checkRecoverySince(sinceText, new Date());
    if (!since) throw new AppError('VALIDATION_FAILED', undefined, errors);
    const tenant = tenantOf(caller);
    const subscriptions = this.repos.subscriptions.of(tenant);
    const sub = await subscriptions.get(subscriptionId);
    if (!sub || sub.deletedAt) throw notFound('webhook subscription');
    if (!sub.isActive) {
      throw invalidState('The subscription is disabled; delete it and register the endpoint again, then recover.');
    }
    // First, so an event still in transit now is delivered by the fan-out when it arrives (or found here).
    if (!sub.recoverSince || sub.recoverSince > since) {
      await subscriptions.updateOne({ _id: sub._id }, { $set: { recoverSince: since } });
      this.subscriptionCache?.invalidate(caller.tenantId);
    }
    const earlier = await subscriptions.find({ url: sub.url, _id: { $ne: sub._id } }, { _id: 1 }).lean();
    const subscriptionIds = [sub._id, ...earlier.map((s) => s._id)];

    let count = 0;
    let after: EnvelopeHead | undefined;
    for (;;) {
      const batch = await this.nextBatch(tenant, sub, since, after);
      if (batch.length === 0) break;
      after = batch[batch.length - 1];
      // Only the events the subscription's filter takes, as the fan-out would have sent them (0231).
      const taken = sub.filter ? batch.filter((e) => takesEvent(sub, dataOf(e.payload))) : batch;
      if (taken.length) count += await this.resend(tenant, sub, subscriptionIds, taken, count);
      if (batch.length < BATCH) break;
    }
    this.logger.info({ tenantId: caller.tenantId, subscriptionId: sub._id, count }, 'webhook events recovered');
    return { since: since.toISOString(), count };
  }

  /**
   * The next stored events of the subscription's types, oldest first, after `after` (by occurredAt, then
   * id); with their bytes when a filter must read them.
   */
  private nextBatch(
    tenant: TenantId,
    sub: Pick<SubscriptionDoc, 'eventTypes' | 'filter'>,
    since: Date,
    after?: EnvelopeHead,
  ): Promise<EnvelopeHead[]> {
    const range = after
      ? {
          $or: [{ occurredAt: { $gt: after.occurredAt } }, { occurredAt: after.occurredAt, _id: { $gt: after._id } }],
        }
      : {};
    return this.repos.envelopes
      .of(tenant)
      .find(
        { eventType: { $in: sub.eventTypes }, occurredAt: { $gte: since }, ...range },
        { _id: 1, eventType: 1, occurredAt: 1, ...(sub.filter ? { payload: 1 } : {}) },
      )
      .sort({ occurredAt: 1, _id: 1 })
      .limit(BATCH)
      .lean<EnvelopeHead[]>();
  }

  /** Writes and queues the batch's missing deliveries; returns how many were queued. */
  private async resend(
    tenantId: TenantId,
    sub: SubscriptionDoc,
    subscriptionIds: string[],
    batch: EnvelopeHead[],
    queuedBefore: number,
  ): Promise<number> {
    const deliveries = this.repos.deliveries.of(tenantId);
    const prior = await deliveries
      .find(
        { eventId: { $in: batch.map((e) => e._id) }, subscriptionId: { $in: subscriptionIds } },
        { _id: 0, eventId: 1, subscriptionId: 1, status: 1 },
      )
      .lean<Array<Pick<DeliveryDoc, 'eventId' | 'subscriptionId' | 'status'>>>();
    const wanted = new Set(
      eventsToRecover(
        batch.map((e) => e._id),
        prior,
        sub._id,
      ),
    );
    const missing = batch.filter((e) => wanted.has(e._id));
    if (missing.length === 0) return 0;

    const now = new Date();
    // The new rows keep the bytes 30 days from now, as every delivery row does.
    await this.repos.envelopes
      .of(tenantId)
      .updateMany({ _id: { $in: missing.map((e) => e._id) } }, { $set: { lastUsedAt: now } });
    const rows: DeliveryDoc[] = missing.map((e) =>
      newDeliveryRow({
        _id: randomUUID(),
        tenantId,
        subscriptionId: sub._id,
        eventId: e._id,
        eventType: e.eventType,
        occurredAt: e.occurredAt,
        nextAttemptAt: now,
        at: now,
        recovered: true,
      }),
    );
    let written = rows;
    try {
      await this.repos.insertDeliveries(tenantId, rows);
    } catch (err) {
      if (!isBulkDuplicate(err)) throw err;
      // A delivery of the event reached this subscription meanwhile (fan-out, a concurrent recover).
      const ours = await deliveries.find({ _id: { $in: rows.map((r) => r._id) } }, { _id: 1 }).lean();
      const kept = new Set(ours.map((r) => r._id));
      written = rows.filter((r) => kept.has(r._id));
    }

    const results = await Promise.allSettled(
      written.map((row) =>
        enqueueAttempt(this.amqp, {
          deliveryId: row._id,
          tenantId,
          series: 1,
          attempt: 1,
          subscriptionId: sub._id,
        }),
      ),
    );
    const lost = written.filter((_, i) => results[i]!.status === 'rejected');
    const queued = written.length - lost.length;
    if (lost.length > 0) {
      // Rows whose first attempt could not be queued are removed, so calling again sends them.
      await deliveries.deleteMany({ _id: { $in: lost.map((r) => r._id) } });
      throw new AppError(
        'SERVICE_UNAVAILABLE',
        `${queuedBefore + queued} events were queued, the rest could not be; call recover again to send them.`,
      );
    }
    return queued;
  }
}
