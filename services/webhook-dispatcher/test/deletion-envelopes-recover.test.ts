// A deleted subscription and the event store: attempts still queued for a deleted subscription end
// Failed without a POST; each event's signed bytes are stored once, however many subscriptions get
// it; rows written before that (each with its own copy) keep working and are moved by the migration;
// an event still in transit when `recover` runs is delivered when it arrives.
import { randomUUID } from 'node:crypto';
import { eventually } from '@travel/testkit';
import { moveDeliveryPayloads } from '../src/infra/migrations';
import { registerModels } from '../src/infra/models';
import { ATTEMPT_EXCHANGE, ATTEMPT_KEY, ATTEMPT_QUEUE } from '../src/infra/queues';
import { startHarness, type Harness } from './support/harness';
import { storedSubscription } from './support/stored-docs';

describe('deleted subscriptions and envelopes stored once', () => {
  let h: Harness;
  beforeAll(async () => {
    // A second before attempt 2, so the test can delete the subscription between two attempts.
    h = await startHarness('deleted-envelopes', {
      WEBHOOK_RETRY_SCHEDULE: '1s,100ms,100ms,100ms,100ms,100ms,100ms,100ms',
    });
  });
  afterAll(async () => {
    await h?.stop();
  });

  const models = () => registerModels(h.dispatcher.deps.mongo);
  const detail = async (subId: string, deliveryId: string) =>
    (await h.api('GET', `/api/v1/webhooks/${subId}/deliveries/${deliveryId}`)).body;

  it('an attempt still queued for a deleted subscription ends Failed, without a POST', async () => {
    const r = (await h.receiver()).replyAlways({ status: 503 });
    const sub = await h.register(r.url);
    await h.publish();
    await r.waitForRequests(1);
    const [d] = await eventually(async () => {
      const items = await h.deliveries(sub.id);
      return items[0]?.attempts === 1 ? items : undefined;
    });
    expect((await h.api('DELETE', `/api/v1/webhooks/${sub.id}`)).status).toBe(204);
    const done = await eventually(async () => {
      const x = await detail(sub.id, d.deliveryId);
      return x.status !== 'Pending' ? x : undefined;
    });
    expect(done.status).toBe('Failed');
    expect(done.attemptLog.map((a: any) => [a.attempt, a.outcome, a.error])).toEqual([
      [1, 'retry', null],
      [2, 'failed', 'subscription was deleted'],
    ]);
    expect(r.requests).toHaveLength(1);
    // Its secret is gone from the store; the record stays until retention, out of the list.
    const stored = await models().Subscription.findOne({ _id: sub.id, tenantId: h.tenantId }).lean();
    expect(stored!.secret).toBeUndefined();
    expect(stored!.deletedAt).toEqual(expect.any(Date));
    expect((await h.api('GET', '/api/v1/webhooks')).body.items.map((s: any) => s.id)).not.toContain(sub.id);
  });

  it('a subscription stored before deletion existed (no deletedAt field) is listed and read', async () => {
    const id = randomUUID();
    await models().Subscription.collection.insertOne(
      storedSubscription({ _id: id, tenantId: h.tenantId, url: 'https://localhost:1/old' }) as never,
    );
    expect((await h.api('GET', `/api/v1/webhooks/${id}`)).status).toBe(200);
    expect((await h.api('GET', '/api/v1/webhooks?pageSize=100')).body.items.map((s: any) => s.id)).toContain(id);
    expect((await h.api('DELETE', `/api/v1/webhooks/${id}`)).status).toBe(204);
    expect((await h.api('GET', `/api/v1/webhooks/${id}`)).status).toBe(404);
  });

  it('stores the signed bytes once per event, whatever the number of subscriptions', async () => {
    const r = await h.receiver();
    const subs = [await h.register(r.url), await h.register(r.url), await h.register(r.url)];
    const event = await h.publish();
    const rows = await Promise.all(subs.map(async (s) => (await h.settled(s.id, 1))[0]));
    const envelopes = await models().Envelope.find({ _id: event.id, tenantId: h.tenantId }).lean();
    expect(envelopes).toHaveLength(1);
    const stored = await models().Delivery.find({ eventId: event.id, tenantId: h.tenantId }, { payload: 1 }).lean();
    expect(stored).toHaveLength(3);
    for (const row of stored) expect(row.payload).toBeUndefined();
    // Every delivery reads the same bytes, and those are what every subscription received.
    for (const [i, s] of subs.entries()) {
      const full = await detail(s.id, rows[i].deliveryId);
      expect(full.payload).toBe(envelopes[0]!.payload);
    }
    expect(new Set(r.requests.map((q) => q.body.toString('utf8')))).toEqual(new Set([envelopes[0]!.payload]));
  });

  it('rows with their own copy of the bytes (before envelopes) still read, retry, and migrate', async () => {
    const r = (await h.receiver()).replyAlways({ status: 200 });
    const sub = await h.register(r.url);
    const other = await h.register(r.url);
    const eventId = randomUUID();
    const payload = `{"id":"evt_${eventId.replace(/-/g, '')}","type":"employee.created","createdAt":"2026-11-01T08:00:00.000Z","data":{}}`;
    const row = (subscriptionId: string, createdAt: Date) => ({
      _id: randomUUID(),
      tenantId: h.tenantId,
      subscriptionId,
      eventId,
      eventType: 'employee.created',
      occurredAt: new Date('2026-11-01T08:00:00.000Z'),
      payload,
      status: 'Failed',
      series: 1,
      attemptsMade: 1,
      totalAttempts: 1,
      attemptLog: [],
      lastStatusCode: 400,
      responseBody: null,
      nextAttemptAt: null,
      createdAt,
      updatedAt: createdAt,
    });
    const older = row(sub.id, new Date(Date.now() - 2 * 86_400_000));
    const newer = row(other.id, new Date(Date.now() - 86_400_000));
    await models().Delivery.collection.insertMany([older, newer] as never[]);

    // Before the migration: read and retried from the row's own copy.
    expect((await detail(sub.id, older._id)).payload).toBe(payload);
    const retriedAt = new Date();
    expect((await h.api('POST', `/api/v1/webhooks/${sub.id}/deliveries/${older._id}/retry`)).status).toBe(202);
    await r.waitForRequests(1);
    expect(r.requests[0]!.body.toString('utf8')).toBe(payload);

    // The migration moves the bytes to one envelope and is idempotent. The envelope is kept 30 days from
    // its last use: the manual retry above, which renewed it (decision 0112), not the newest row.
    expect(await moveDeliveryPayloads(models())).toBeGreaterThanOrEqual(2);
    expect(await moveDeliveryPayloads(models())).toBe(0);
    const envelope = await models().Envelope.findOne({ _id: eventId, tenantId: h.tenantId }).lean();
    expect(envelope).toMatchObject({ tenantId: h.tenantId, payload });
    expect(envelope!.lastUsedAt.getTime()).toBeGreaterThanOrEqual(retriedAt.getTime());
    const rows = await models().Delivery.find({ eventId, tenantId: h.tenantId }).lean();
    expect(rows.map((x) => x.payload)).toEqual([undefined, undefined]);
    expect((await detail(sub.id, older._id)).payload).toBe(payload);
    expect((await detail(other.id, newer._id)).payload).toBe(payload);
  });

  it('recover: an older event that reaches the dispatcher only after the call is delivered too', async () => {
    // A tenant of its own: recover would rightly send this URL the other tests' events of the tenant.
    const tenantId = randomUUID();
    const r = await h.receiver();
    const sub = await h.register(r.url, ['employee.created'], tenantId);
    const ago = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();
    const since = ago(60);
    const res = await h.api('POST', `/api/v1/webhooks/${sub.id}/recover`, { since }, tenantId);
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ since: new Date(since).toISOString(), count: 0 });

    // Raised before the registration, within the recovered range: delivered on arrival.
    const late = await h.publish({ tenantId, occurredAt: ago(10) });
    // Raised before `since`: not wanted.
    const tooOld = await h.publish({ tenantId, occurredAt: ago(90) });
    const marker = await h.publish({ tenantId });
    await r.waitForRequests(2);
    await eventually(async () => r.requests.some((q) => q.headers['svc-event-id'] === marker.id));
    const ids = r.requests.map((q) => q.headers['svc-event-id']);
    expect(ids.sort()).toEqual([late.id, marker.id].sort());
    expect(ids).not.toContain(tooOld.id);
    // Recovering again finds both delivered already.
    expect((await h.api('POST', `/api/v1/webhooks/${sub.id}/recover`, { since }, tenantId)).body.count).toBe(0);
  });

  it('recover answers 404 for another tenant and a missing subscription, 409 for a disabled one', async () => {
    const r = await h.receiver();
    const sub = await h.register(r.url);
    const since = new Date().toISOString();
    const other = '99999999-9999-4999-8999-999999999999';
    expect((await h.api('POST', `/api/v1/webhooks/${sub.id}/recover`, { since }, other)).status).toBe(404);
    expect((await h.api('POST', `/api/v1/webhooks/${other}/recover`, { since })).status).toBe(404);
    await models().Subscription.updateOne({ _id: sub.id, tenantId: h.tenantId }, { $set: { isActive: false } });
    const disabled = await h.api('POST', `/api/v1/webhooks/${sub.id}/recover`, { since });
    expect(disabled.status).toBe(409);
    expect(disabled.body.code).toBe('INVALID_STATE');
  });

  it('recover that cannot queue answers 503 and keeps nothing half-done: calling again sends it all', async () => {
    const tenantId = randomUUID();
    let ok = false;
    const r = (await h.receiver()).replyWith(() => (ok ? { status: 200 } : { status: 410 }));
    const first = await h.register(r.url, ['employee.created'], tenantId);
    const since = new Date().toISOString();
    const events = [await h.publish({ tenantId }), await h.publish({ tenantId }), await h.publish({ tenantId })];
    await eventually(async () => {
      const items = (await h.api('GET', `/api/v1/webhooks/${first.id}/deliveries`, undefined, tenantId)).body.items;
      return items.length === 3 && items.every((d: any) => d.status === 'Failed');
    });
    expect((await h.api('DELETE', `/api/v1/webhooks/${first.id}`, undefined, tenantId)).status).toBe(204);
    const again = await h.register(r.url, ['employee.created'], tenantId);
    ok = true;

    const ch = await h.dispatcher.deps.amqp.channel();
    try {
      await ch.unbindQueue(ATTEMPT_QUEUE, ATTEMPT_EXCHANGE, ATTEMPT_KEY);
      const refused = await h.api('POST', `/api/v1/webhooks/${again.id}/recover`, { since }, tenantId);
      expect(refused.status).toBe(503);
      expect(refused.body.code).toBe('SERVICE_UNAVAILABLE');
      const log = await h.api('GET', `/api/v1/webhooks/${again.id}/deliveries`, undefined, tenantId);
      expect(log.body.total).toBe(0);
    } finally {
      await ch.bindQueue(ATTEMPT_QUEUE, ATTEMPT_EXCHANGE, ATTEMPT_KEY);
      await ch.close();
    }
    const res = await h.api('POST', `/api/v1/webhooks/${again.id}/recover`, { since }, tenantId);
    expect(res.status).toBe(202);
    expect(res.body.count).toBe(3);
    await r.waitForRequests(6);
    const resent = r.requests.slice(3).map((q) => q.headers['svc-event-id']);
    expect(resent.sort()).toEqual(events.map((e) => e.id).sort());
  });
});
