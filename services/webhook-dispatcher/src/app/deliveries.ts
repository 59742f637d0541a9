import {
  AppError,
  invalidState,
  notFound,
  listPage,
  queryInstant,
  type AmqpClient,
  type CallerContext,
  type ListRequest,
  tenantOf,
} from '@travel/platform';
import type { DeliveryDoc, DispatcherRepositories } from '../infra/repositories';
import { enqueueAttempt } from '../infra/queues';

function summary(d: DeliveryDoc) {
  return {
    deliveryId: d._id,
    subscriptionId: d.subscriptionId,
    eventId: d.eventId,
    eventType: d.eventType,
    status: d.status,
    attempts: d.totalAttempts,
    lastStatusCode: d.lastStatusCode ?? null,
    nextAttemptAt: d.nextAttemptAt ? d.nextAttemptAt.toISOString() : null,
    createdAt: d.createdAt.toISOString(),
    updatedAt: d.updatedAt.toISOString(),
  };
}

function detail(d: DeliveryDoc, payload: string) {
  return {
    ...summary(d),
    payload,
    responseBody: d.responseBody ?? null,
    attemptLog: d.attemptLog.map((a) => ({
      series: a.series,
      attempt: a.attempt,
      at: a.at.toISOString(),
      outcome: a.outcome,
      statusCode: a.statusCode ?? null,
      error: a.error ?? null,
      durationMs: a.durationMs,
    })),
  };
}

/** The delivery log's filters; times are ISO date-times, already checked against the contract. */
export interface DeliveryFilter {
  status?: string;
  eventType?: string;
  /** At or after. */
  createdFrom?: string;
  /** Before. */
  createdBefore?: string;
}

/** A bound as a Date; a date-time the contract accepts but no Date holds (a leap second, `…T23:59:60Z`) is 400. */
function instant(filter: DeliveryFilter, name: 'createdFrom' | 'createdBefore'): Date | undefined {
  const text = filter[name];
  if (!text) return undefined;
  return queryInstant(name, text, 'not a valid instant'); // and no longer than the contract's QueryTimestamp
}

/** The store's condition on createdAt: [createdFrom, createdBefore); an empty or reversed range is 400. */
export function createdRange(filter: DeliveryFilter): { $gte?: Date; $lt?: Date } | undefined {
  const from = instant(filter, 'createdFrom');
  const before = instant(filter, 'createdBefore');
  if (!from && !before) return undefined;
  if (from && before && before.getTime() <= from.getTime())
    throw new AppError('VALIDATION_FAILED', undefined, { createdBefore: ['must be later than createdFrom'] });
  return { ...(from ? { $gte: from } : {}), ...(before ? { $lt: before } : {}) };
}

export class DeliveriesApp {
  constructor(
    private readonly repos: DispatcherRepositories,
    private readonly amqp: AmqpClient,
  ) {}

  private scope(caller: CallerContext) {
    return this.repos.deliveries.of(tenantOf(caller));
  }

  /** Delta sync goes by `updatedAt`, which every write of a row sets (docs/decisions/0159). */
  list(caller: CallerContext, subscriptionId: string, filter: DeliveryFilter, page: ListRequest) {
    const query: Record<string, unknown> = { subscriptionId };
    if (filter.status) query.status = filter.status;
    if (filter.eventType) query.eventType = filter.eventType;
    const created = createdRange(filter);
    if (created) query.createdAt = created;
    return listPage<DeliveryDoc, ReturnType<typeof summary>>(
      this.scope(caller),
      query,
      page,
      { createdAt: -1, _id: 1 },
      summary,
      { editedField: 'updatedAt' },
    );
  }

  /** A delivery of another subscription (even of the same tenant) is 404, as the spec requires. */
  async get(caller: CallerContext, subscriptionId: string, deliveryId: string) {
    const { row, payload } = await this.read(caller, subscriptionId, deliveryId);
    return detail(row, payload);
  }

  private async read(caller: CallerContext, subscriptionId: string, deliveryId: string) {
    const [row] = await this.scope(caller).find({ _id: deliveryId, subscriptionId }).lean<DeliveryDoc[]>();
    if (!row) throw notFound('delivery');
    // Rows reference the event's envelope, stored once; rows older than that carried their own copy.
    const payload = row.payload ?? (await this.repos.envelopes.of(tenantOf(caller)).get(row.eventId))?.payload;
    // Only in the moments between the retention job removing the envelope and then the row.
    if (payload === undefined) throw notFound('delivery');
    return { row, payload };
  }

  /** A new attempt series for a Failed or Exhausted delivery: same event id, same bytes, fresh signature. */
  async retry(caller: CallerContext, subscriptionId: string, deliveryId: string) {
    const { row: current, payload } = await this.read(caller, subscriptionId, deliveryId);
    const sub = await this.repos.subscriptions.of(tenantOf(caller)).get(subscriptionId);
    if (!sub) throw notFound('webhook subscription');
    if (sub.deletedAt) {
      throw invalidState('The subscription was deleted; register the endpoint again and recover the events it missed.');
    }
    if (!sub.isActive) {
      throw invalidState(
        'The subscription is disabled; delete it, register the endpoint again and recover the events it missed.',
      );
    }
    if (current.status !== 'Failed' && current.status !== 'Exhausted') {
      throw invalidState(`Only Failed or Exhausted deliveries can be retried; this one is ${current.status}.`);
    }
    await this.renewEnvelope(caller, current, payload);
    const prev = await this.scope(caller)
      .findOneAndUpdate(
        { _id: deliveryId, subscriptionId, status: { $in: ['Failed', 'Exhausted'] } },
        {
          $set: { status: 'Pending', attemptsMade: 0, nextAttemptAt: new Date(), updatedAt: new Date() },
          $inc: { series: 1 },
        },
        { new: true },
      )
      .lean<DeliveryDoc>();
    if (!prev) throw invalidState('The delivery changed state meanwhile; read it again.');
    try {
      await enqueueAttempt(this.amqp, {
        deliveryId,
        tenantId: caller.tenantId,
        series: prev.series,
        attempt: 1,
        subscriptionId,
      });
    } catch {
      await this.scope(caller).updateOne(
        { _id: deliveryId, series: prev.series, attemptsMade: 0 },
        { $set: { status: current.status } },
      );
      throw new AppError('SERVICE_UNAVAILABLE', 'The retry could not be queued; try again.');
    }
    return detail(prev, payload);
  }

  /**
   * A new series needs the bytes for days to come: retention counts the envelope's 30 days from now
   * (docs/decisions/0112). Before the row turns Pending, so the retention job either sees the renewal or
   * has removed the envelope already; then (or for a row older than envelopes) the bytes just read are
   * stored again.
   */
  private async renewEnvelope(caller: CallerContext, row: DeliveryDoc, payload: string): Promise<void> {
    const now = new Date();
    await this.repos.envelopes.of(tenantOf(caller)).updateOne(
      { _id: row.eventId },
      {
        $set: { lastUsedAt: now },
        $setOnInsert: { eventType: row.eventType, occurredAt: row.occurredAt, payload, createdAt: now },
      },
      { upsert: true },
    );
  }
}
