import { randomUUID } from 'node:crypto';
import { purgeOldDeliveries } from '../src/app/retention';
import { registerModels } from '../src/infra/models';
import { dispatcherRepositories } from '../src/infra/repositories';
import { startHarness, type Harness } from './support/harness';
import { storedDelivery } from './support/stored-docs';

describe('slow partners and retention', () => {
  let h: Harness;
  beforeAll(async () => {
    // Few worker slots (prefetch 4) and at most 2 per subscription: without the per-subscription bound,
    // the hanging partner's attempts would hold every slot and the healthy partner would wait 5 s.
    h = await startHarness('isolation', {
      WEBHOOK_TIMEOUT_MS: '5000',
      WEBHOOK_ATTEMPT_PREFETCH: '4',
      WEBHOOK_MAX_IN_FLIGHT_PER_SUBSCRIPTION: '2',
    });
  });
  afterAll(async () => {
    await h?.stop();
  });

  it('a receiver that hangs does not delay another subscription by more than a second', async () => {
    const hanging = (await h.receiver()).replyAlways({ hang: true });
    const healthy = await h.receiver();
    await h.register(hanging.url);
    await h.register(healthy.url);
    // Published at a pace the development store absorbs (docs/benchmarks.md), so what is measured is
    // the hanging partner's effect on the other one, not the store's backlog.
    const publishedAt = new Map<string, number>();
    for (let i = 0; i < 12; i++) {
      const event = await h.publish();
      publishedAt.set(event.id, Date.now());
      await new Promise((r) => setTimeout(r, 150));
    }
    await healthy.waitForRequests(12, 10_000);
    const delays = healthy.requests.map((q) => q.at - publishedAt.get(String(q.headers['svc-event-id']))!);
    expect(delays).toHaveLength(12);
    // Each healthy delivery arrived within a second of its own event, while the hanging partner held
    // its bounded share of in-flight attempts (5 s each) and the rest of its attempts waited their turn.
    expect(Math.max(...delays)).toBeLessThan(1000);
    expect(hanging.requests.length).toBeGreaterThan(0);
    expect(hanging.requests.length).toBeLessThanOrEqual(2);
  });

  it('hard-deletes delivery rows, envelopes and deleted subscriptions older than 30 days, keeps newer ones', async () => {
    const models = registerModels(h.dispatcher.deps.mongo);
    const ago = (days: number) => new Date(Date.now() - days * 86_400_000);
    const row = (ageDays: number) => storedDelivery({ tenantId: h.tenantId, createdAt: ago(ageDays) });
    const envelope = (usedDaysAgo: number) => ({
      _id: randomUUID(),
      tenantId: h.tenantId,
      eventType: 'employee.created',
      occurredAt: ago(40),
      payload: '{"secret":"bytes"}',
      createdAt: ago(40),
      lastUsedAt: ago(usedDaysAgo),
    });
    const subscription = (deletedDaysAgo: number | null) => ({
      _id: randomUUID(),
      tenantId: h.tenantId,
      url: 'https://localhost:1/gone',
      eventTypes: ['employee.created'],
      secret: 'sealed',
      isActive: true,
      createdAt: ago(60),
      deletedAt: deletedDaysAgo === null ? null : ago(deletedDaysAgo),
    });
    const [oldRow, newRow] = [row(31), row(29)];
    // An envelope is kept 30 days from its newest row (a recover re-uses an old event's bytes).
    const [oldEnvelope, reusedEnvelope] = [envelope(31), envelope(29)];
    const [longDeleted, recentlyDeleted, active] = [subscription(31), subscription(29), subscription(null)];
    await models.Delivery.create([oldRow, newRow]);
    await models.Envelope.create([oldEnvelope, reusedEnvelope]);
    await models.Subscription.create([longDeleted, recentlyDeleted, active]);

    const repos = dispatcherRepositories(h.dispatcher.deps.mongo);
    const before = await repos.versions.state(h.tenantId, 'subscriptions');
    const purged = await purgeOldDeliveries(repos);
    expect(purged).toEqual({ deliveries: 1, envelopes: 1, subscriptions: 1 });
    // The purge is a write of the tenant's subscriptions like any other: it moves their version (0159),
    // which the dispatchers' caches are revalidated by (0238). A bracket is two bumps.
    const after = await repos.versions.state(h.tenantId, 'subscriptions');
    expect(after).toMatchObject({ version: before.version + 2, settled: true });
    expect(await models.Delivery.exists({ _id: oldRow._id, tenantId: h.tenantId })).toBeNull();
    expect(await models.Delivery.exists({ _id: newRow._id, tenantId: h.tenantId })).not.toBeNull();
    expect(await models.Envelope.exists({ _id: oldEnvelope._id, tenantId: h.tenantId })).toBeNull();
    expect(await models.Envelope.exists({ _id: reusedEnvelope._id, tenantId: h.tenantId })).not.toBeNull();
    expect(await models.Subscription.exists({ _id: longDeleted._id, tenantId: h.tenantId })).toBeNull();
    expect(await models.Subscription.exists({ _id: recentlyDeleted._id, tenantId: h.tenantId })).not.toBeNull();
    expect(await models.Subscription.exists({ _id: active._id, tenantId: h.tenantId })).not.toBeNull();
  });

  it('keeps a delivery whose attempt series still runs, and the envelope it will send, however old', async () => {
    const models = registerModels(h.dispatcher.deps.mongo);
    const ago = (days: number) => new Date(Date.now() - days * 86_400_000);
    const eventId = randomUUID();
    await models.Envelope.create({
      _id: eventId,
      tenantId: h.tenantId,
      eventType: 'employee.created',
      occurredAt: ago(31),
      payload: '{"still":"sending"}',
      createdAt: ago(31),
      lastUsedAt: ago(31),
    });
    const subscriptionId = randomUUID();
    await models.Subscription.create({
      _id: subscriptionId,
      tenantId: h.tenantId,
      url: 'https://localhost:1/slow',
      eventTypes: ['employee.created'],
      secret: 'sealed',
      isActive: true,
      createdAt: ago(60),
    });
    // Attempt 8 of its series failed; attempt 9 is scheduled.
    const running = {
      _id: randomUUID(),
      tenantId: h.tenantId,
      subscriptionId,
      eventId,
      eventType: 'employee.created',
      occurredAt: ago(31),
      status: 'Pending',
      series: 2,
      attemptsMade: 8,
      totalAttempts: 9,
      attemptLog: [],
      lastStatusCode: 503,
      responseBody: null,
      nextAttemptAt: new Date(Date.now() + 3_600_000),
      createdAt: ago(31),
      updatedAt: new Date(),
    };
    // A Pending row whose subscription was purged long ago: no attempt of it can run any more.
    const stranded = { ...running, _id: randomUUID(), subscriptionId: randomUUID(), eventId: randomUUID() };
    await models.Delivery.create([running, stranded]);

    await purgeOldDeliveries(dispatcherRepositories(h.dispatcher.deps.mongo));
    expect(await models.Delivery.exists({ _id: running._id, tenantId: h.tenantId })).not.toBeNull();
    expect(await models.Envelope.exists({ _id: eventId, tenantId: h.tenantId })).not.toBeNull();
    expect(await models.Delivery.exists({ _id: stranded._id, tenantId: h.tenantId })).toBeNull();
  });

  it('a manual retry renews the retention of its envelope', async () => {
    const models = registerModels(h.dispatcher.deps.mongo);
    const day = 86_400_000;
    // The delivery's first attempt fails for good; any later one succeeds.
    const seen = new Set<string>();
    const r = (await h.receiver()).replyWith((q) => {
      const id = String(q.headers['svc-delivery-id']);
      if (seen.has(id)) return { status: 200 };
      seen.add(id);
      return { status: 400 };
    });
    const sub = await h.register(r.url);
    const event = await h.publish();
    const [d] = await h.settled(sub.id, 1);
    expect(d.status).toBe('Failed');
    // The delivery and its envelope were written 29 days ago: one more day of retention.
    const written = new Date(Date.now() - 29 * day);
    await models.Delivery.updateOne({ _id: d.deliveryId, tenantId: h.tenantId }, { $set: { createdAt: written } });
    await models.Envelope.updateOne({ _id: event.id, tenantId: h.tenantId }, { $set: { lastUsedAt: written } });

    const retried = await h.api('POST', `/api/v1/webhooks/${sub.id}/deliveries/${d.deliveryId}/retry`);
    expect(retried.status).toBe(202);
    const [done] = await h.settled(sub.id, 1);
    expect(done.status).toBe('Succeeded');

    // Two days on, the row (31 days old, its series over) goes; the retried event's bytes stay 30 days
    // from the retry.
    const repos = dispatcherRepositories(h.dispatcher.deps.mongo);
    await purgeOldDeliveries(repos, new Date(Date.now() + 2 * day));
    expect(await models.Delivery.exists({ _id: d.deliveryId, tenantId: h.tenantId })).toBeNull();
    expect(await models.Envelope.exists({ _id: event.id, tenantId: h.tenantId })).not.toBeNull();
  });

  it('finds what it purges by indexed fields', async () => {
    const models = registerModels(h.dispatcher.deps.mongo);
    const keys = async (model: { listIndexes(): Promise<Array<{ key: Record<string, unknown> }>> }) =>
      (await model.listIndexes()).map((i) => Object.keys(i.key).join(','));
    expect(await keys(models.Delivery)).toContain('createdAt');
    expect(await keys(models.Envelope)).toContain('lastUsedAt');
    expect(await keys(models.Subscription)).toContain('deletedAt');
  });
});
