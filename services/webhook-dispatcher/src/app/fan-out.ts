import { randomUUID } from 'node:crypto';
import { WEBHOOK_EVENT_TYPES } from '@travel/contracts';
import { isDuplicateKey, parseTenantId, type DomainEvent, type TenantId } from '@travel/platform';
import { envelopeBytes } from '../domain/envelope';
import type { EnvelopeCache } from '../infra/envelope-cache';
import type { DeliveryDoc, DispatcherRepositories, EnvelopeDoc, SubscriptionDoc } from '../infra/repositories';
import type { SubscriptionCache } from '../infra/subscription-cache';
import type { FirstAttempts, SentFirst } from './first-attempts';
import { newDeliveryRow } from './new-delivery';
import type { OutcomeRecorder } from './record';
import { attemptOf, type AttemptScheduler } from './schedule';
import { takesEvent } from './subscription-filter';

export interface FanOutDeps {
  repos: DispatcherRepositories;
  schedule: AttemptScheduler;
  envelopes?: EnvelopeCache;
  subscriptions?: SubscriptionCache;
  /** First attempts sent from the fan-out (docs/decisions/0095); without them every first attempt is queued. */
  sendNow?: { first: FirstAttempts; recorder: OutcomeRecorder };
  /** Counts the subscriptions whose filter passed over an event, by event type (0231). */
  filtered?: { inc(labels: { event_type: string }, value: number): void };
}

const PUBLIC_TYPES = new Set<string>(WEBHOOK_EVENT_TYPES);

/** A bulk insert that failed only on the unique index (rows that exist already). */
export const isBulkDuplicate = (err: unknown): boolean => {
  const e = err as { code?: number; writeErrors?: Array<{ code?: number }> };
  return isDuplicateKey(e) || (Array.isArray(e?.writeErrors) && e.writeErrors.every((w) => w.code === 11000));
};

/**
 * Stores the event's signed body once; `first`: this copy stored it (a redelivered or republished event
 * finds it there already).
 */
async function storeEnvelope(
  repos: DispatcherRepositories,
  tenant: TenantId,
  event: DomainEvent,
  now: Date,
): Promise<{ payload: string; first: boolean }> {
  const doc: EnvelopeDoc = {
    _id: event.id,
    tenantId: event.tenantId,
    eventType: event.type,
    occurredAt: new Date(event.occurredAt),
    payload: envelopeBytes(event),
    createdAt: now,
    lastUsedAt: now,
  };
  try {
    await repos.insertEnvelope(tenant, doc);
    return { payload: doc.payload, first: true };
  } catch (err) {
    if (!isDuplicateKey(err)) throw err;
    // A redelivered event: its rows may be written only now, so retention counts from now too.
    await repos.envelopes.of(tenant).updateOne({ _id: event.id }, { $set: { lastUsedAt: now } });
    return { payload: doc.payload, first: false };
  }
}

/**
 * One public event: its envelope stored once, a delivery row per matching active subscription (unique
 * per event and subscription) written in one command, then attempt 1 of each. The event is
 * acknowledged only after all of that, so a crash re-runs it: rows that already exist are found by the
 * unique index and their first attempt is queued again if it never ran.
 *
 * The envelope is kept whenever the tenant has any subscription to the type, disabled or deleted ones
 * included, so a partner back from an outage can `recover` what was raised meanwhile (docs/decisions/0039).
 *
 * An event handled for the first time (`fresh`) sends attempt 1 itself to the subscriptions that have a
 * free slot and answer promptly, and writes each of those rows once, with its outcome (0095); the others
 * take the queue as above. A crash before the acknowledgement re-runs the event as not fresh: every row
 * not written yet is created then and its attempt 1 queued (the partner may get that event twice, with
 * the same id and bytes: at least once).
 */
export async function fanOut(deps: FanOutDeps, event: DomainEvent, fresh = false): Promise<number> {
  if (!PUBLIC_TYPES.has(event.type)) return 0;
  const { repos, envelopes: cache, subscriptions: subscriptionCache, sendNow } = deps;
  // The event's tenant is set by the producing service (a trusted seam).
  const tenant = parseTenantId(event.tenantId);
  const occurredAt = new Date(event.occurredAt);
  type Head = Pick<SubscriptionDoc, '_id' | 'isActive' | 'createdAt' | 'deletedAt' | 'recoverSince' | 'filter'>;
  const find = (): Promise<Head[]> =>
    repos.subscriptions
      .of(tenant)
      .find({ eventTypes: event.type }, { _id: 1, isActive: 1, createdAt: 1, deletedAt: 1, recoverSince: 1, filter: 1 })
      .lean<Head[]>();
  // From the cache only as loaded after the event was raised: every subscription registered before
  // the event is in it (docs/decisions/0059).
  let subscriptions: Head[] = subscriptionCache
    ? [...(await subscriptionCache.tenant(tenant, occurredAt.getTime())).values()].filter((s) =>
        s.eventTypes.includes(event.type),
      )
    : await find();
  if (subscriptions.length === 0) return 0;

  const now = new Date();
  const { payload, first } = await storeEnvelope(repos, tenant, event, now);
  // A second copy of an event the broker delivers for the first time: the relays of two replicas of its
  // service published it both (at least once). Another fan-out has it, or had it: that copy's message is
  // acknowledged only when its rows are written, so a crash redelivers it (not fresh: handled below). This
  // one sends nothing, or the partner would get the first attempt twice (docs/decisions/0215).
  if (fresh && !first) return 0;
  // A subscription receives the events raised after it was registered, not older ones still in flight,
  // unless it asked to recover events since a time before them (an older event arriving only now was
  // not there for `recover` to see).
  const wants = (s: { createdAt: Date; recoverSince?: Date | null }) =>
    s.createdAt <= occurredAt || (!!s.recoverSince && s.recoverSince <= occurredAt);
  // One registered after the event may be recovering right now: `recover` records its `since`, then
  // reads the envelopes; the envelope is stored, then the subscriptions are read again (from the store,
  // never the cache). One of the two sees the other's write, so the event is not missed (and the unique
  // row index stops a second send).
  if (subscriptions.some((s) => s.isActive && !s.deletedAt && !wants(s))) subscriptions = await find();
  const live = subscriptions.filter((s) => s.isActive && !s.deletedAt && wants(s));
  // A subscription whose filter passes over the event gets no row and no attempt: nothing in its log,
  // nothing toward its health or auto-disable (0231). The envelope stays stored, as for every event.
  const targets = live.filter((s) => takesEvent(s, event.data));
  if (targets.length < live.length) deps.filtered?.inc({ event_type: event.type }, live.length - targets.length);
  if (targets.length === 0) return 0;
  cache?.set(event.id, event.tenantId, payload);

  const rows: DeliveryDoc[] = targets.map((sub) =>
    newDeliveryRow({
      _id: randomUUID(),
      tenantId: event.tenantId,
      subscriptionId: sub._id,
      eventId: event.id,
      eventType: event.type,
      occurredAt,
      nextAttemptAt: now,
      at: now,
    }),
  );
  // Send now, or queue: a fresh event sends attempt 1 to each subscription that can take it at once.
  const release = fresh ? sendNow?.first.holdEvent() : undefined;
  if (!sendNow || !release) return queueFirstAttempts(deps, tenant, event, rows);
  let sent: PromiseSettledResult<SentFirst>[];
  let queuing: Promise<number>;
  try {
    const claims = await Promise.all(rows.map((row) => sendNow.first.claim(tenant, row)));
    // Those without a slot take the queue at once, beside the sends (claimed slots are always sent).
    queuing = queueFirstAttempts(
      deps,
      tenant,
      event,
      rows.filter((_, i) => !claims[i]),
    );
    queuing.catch(() => undefined); // awaited below
    sent = await Promise.allSettled(
      claims.flatMap((sub, i) => (sub ? [sendNow.first.send(sub, rows[i]!, payload)] : [])),
    );
  } finally {
    // The hold covers the sends only: the writes below are bounded by the store, not by a partner.
    release();
  }
  const queued = await queuing;
  const failed = sent.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
  const attempts = sent.map((r) => (r as PromiseFulfilledResult<SentFirst>).value);
  if (attempts.length === 0) return queued;
  // One write for the event's rows, each with its first attempt in it. A row that exists already was
  // written by a `recover` running beside this fan-out, and that one carries on (the partner got the event
  // from both: at least once). What follows an attempt comes once its row is written (a crash in between:
  // the re-run fan-out finds the row Pending and queues its next attempt, below).
  const written = await repos.insertDeliveriesOnce(
    tenant,
    attempts.map((a) => a.row),
  );
  await Promise.all(
    attempts.map((a, i) =>
      written[i] ? sendNow.recorder.recorded(a.sub, a.row, attemptOf(a.row, 1), a.outcome) : undefined,
    ),
  );
  return queued + attempts.length;
}

/** New rows written Pending, then attempt 1 of each queued (of those a redelivered event had already). */
async function queueFirstAttempts(
  { repos, schedule, sendNow }: FanOutDeps,
  tenant: TenantId,
  event: DomainEvent,
  rows: DeliveryDoc[],
): Promise<number> {
  if (rows.length === 0) return 0;
  let pending: Array<Pick<DeliveryDoc, '_id' | 'series' | 'attemptsMade' | 'status' | 'subscriptionId'>> = rows;
  try {
    await repos.insertDeliveries(tenant, rows);
  } catch (err) {
    if (!isBulkDuplicate(err)) throw err;
    // A redelivered event: take the rows as they are now, whichever run created them.
    pending = await repos.deliveries
      .of(tenant)
      .find(
        { eventId: event.id, subscriptionId: { $in: rows.map((r) => r.subscriptionId) } },
        { _id: 1, series: 1, attemptsMade: 1, status: 1, subscriptionId: 1 },
      )
      .lean();
  }
  const { occurredAt } = rows[0]!;
  const open = pending.filter((d) => d.status === 'Pending' && d.series === 1 && (d.attemptsMade === 0 || sendNow));
  await Promise.all(
    open.map((d) =>
      d.attemptsMade === 0
        ? schedule.first({
            _id: d._id,
            tenantId: event.tenantId,
            subscriptionId: d.subscriptionId,
            eventId: event.id,
            eventType: event.type,
            occurredAt,
          })
        : // A first attempt sent from an earlier run of this fan-out, which may have stopped before it
          // queued the next one (0095). Queued again: the next attempt is recorded once (compare-and-set),
          // though if both messages run at once the partner may get it twice (at least once).
          schedule.next(attemptOf({ ...d, tenantId: event.tenantId }, d.attemptsMade)),
    ),
  );
  return open.length;
}
