import { randomUUID } from 'node:crypto';
import { WEBHOOK_EVENT_TYPES } from '@travel/contracts';
import { isDuplicateKey, type AmqpClient, type DomainEvent } from '@travel/platform';
import { envelopeBytes } from '../domain/envelope';
import type { DeliveryDoc, DispatcherModels } from '../infra/models';
import { enqueueAttempt } from '../infra/queues';

const PUBLIC_TYPES = new Set<string>(WEBHOOK_EVENT_TYPES);

/**
 * One public event: a delivery row per matching active subscription (unique per event and
 * subscription), then attempt 1 of each. The event is acknowledged only after all of that, so a crash
 * re-runs it: existing rows are found by the unique index and their first attempt is queued again
 * if it never ran.
 */
export async function fanOut(models: DispatcherModels, amqp: AmqpClient, event: DomainEvent): Promise<number> {
  if (!PUBLIC_TYPES.has(event.type)) return 0;
  // A subscription receives the events raised after it was registered, not older ones still in flight.
  const subscriptions = await models.Subscription.find({
    tenantId: event.tenantId,
    isActive: true,
    eventTypes: event.type,
    createdAt: { $lte: new Date(event.occurredAt) },
  }).lean();
  if (subscriptions.length === 0) return 0;
  const payload = envelopeBytes(event);
  const now = new Date();
  let queued = 0;
  for (const sub of subscriptions) {
    const row: DeliveryDoc = {
      _id: randomUUID(),
      tenantId: event.tenantId,
      subscriptionId: sub._id,
      eventId: event.id,
      eventType: event.type,
      occurredAt: new Date(event.occurredAt),
      payload,
      status: 'Pending',
      series: 1,
      attemptsMade: 0,
      totalAttempts: 0,
      attemptLog: [],
      lastStatusCode: null,
      responseBody: null,
      nextAttemptAt: now,
      createdAt: now,
      updatedAt: now,
    };
    let delivery: Pick<DeliveryDoc, '_id' | 'series' | 'attemptsMade' | 'status'> = row;
    try {
      await models.Delivery.create(row);
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
      const existing = await models.Delivery.findOne({ tenantId: event.tenantId, subscriptionId: sub._id, eventId: event.id }).lean();
      if (!existing) throw err;
      delivery = existing;
    }
    if (delivery.status === 'Pending' && delivery.series === 1 && delivery.attemptsMade === 0) {
      await enqueueAttempt(amqp, { deliveryId: delivery._id, tenantId: event.tenantId, series: 1, attempt: 1 });
      queued++;
    }
  }
  return queued;
}
