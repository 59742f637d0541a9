import { parseTenantId, type TenantId } from '@travel/platform';
import { outcomeOf } from '../domain/outcome';
import type { EnvelopeCache } from '../infra/envelope-cache';
import type { DeliveryDoc, DispatcherRepositories, SubscriptionDoc } from '../infra/repositories';
import type { AttemptMessage } from '../infra/queues';
import type { SubscriptionCache } from '../infra/subscription-cache';
import type { Deliverer } from './deliver';
import { newDeliveryRow } from './new-delivery';
import type { OutcomeRecorder } from './record';
import { attemptOf, type AttemptScheduler } from './schedule';
import type { SubscriptionSlots } from './subscription-slots';

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
  /** Each subscription's share of the sends in flight (its bound, and short local waits). */
  slots: SubscriptionSlots;
  deliverer: Deliverer;
  recorder: OutcomeRecorder;
  schedule: AttemptScheduler;
}

/**
 * Runs one queued attempt message: the row (carried or read), checks, a slot, `deliver`, `record`, then
 * what follows. Idempotent under redelivery: an attempt already recorded is not sent again (its follow-up
 * is re-queued if that was lost); an attempt whose send was not recorded (a crash between the POST and the
 * write) is sent again with the same event id and bytes.
 */
export class AttemptRunner {
  constructor(private readonly deps: AttemptDeps) {}

  /**
   * `fresh`: the broker has not delivered this message before and no handling of it failed (not
   * redelivered, no retry count). Only then may a first attempt that carries its row's data skip reading
   * the row (docs/decisions/0089).
   */
  async run(m: AttemptMessage, fresh = false): Promise<void> {
    const { repos, slots, schedule } = this.deps;
    // One slow partner must not take every worker slot: over its bound (and with no room to wait for a
    // slot here), the attempt waits a second in the broker, checked before any store read when the
    // message names its subscription.
    if (m.subscriptionId && slots.saturated(m.subscriptionId)) return schedule.defer(m, m.subscriptionId);
    // The attempt message names its tenant; we wrote it (a trusted seam).
    const tenant = parseTenantId(m.tenantId);
    const row = (fresh && carried(m)) || (await repos.deliveries.of(tenant).get(m.deliveryId));
    if (!row || row.series !== m.series || row.status !== 'Pending') return;
    const at = attemptOf(row, m.attempt);
    if (row.attemptsMade >= m.attempt) {
      if (row.attemptsMade === m.attempt) await schedule.next(at);
      return;
    }
    const sub = await this.subscription(tenant, row.subscriptionId);
    if (!sub) return; // purged by retention with its deliveries
    const gone = sub.deletedAt ? 'subscription was deleted' : sub.isActive ? undefined : 'subscription is disabled';
    const payload = gone ? undefined : (row.payload ?? (await this.envelope(row.eventId, tenant)));
    if (payload === undefined) {
      const error = gone ?? 'event no longer stored';
      await this.deps.recorder.record(row, at, outcomeOf({ kind: 'not-sent', error }, m.attempt));
      return;
    }
    if (!(await slots.acquire(sub._id))) return schedule.defer(m, sub._id);
    const outcome = outcomeOf(await this.deps.deliverer.deliver(sub, row, payload), m.attempt);
    if (await this.deps.recorder.record(row, at, outcome)) await this.deps.recorder.recorded(sub, row, at, outcome);
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
}
