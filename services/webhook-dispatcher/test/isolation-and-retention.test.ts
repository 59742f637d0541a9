import { randomUUID } from 'node:crypto';
import { purgeOldDeliveries } from '../src/app/retention';
import { registerModels } from '../src/infra/models';
import { startHarness, type Harness } from './support/harness';

describe('slow partners and retention', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness('isolation', { WEBHOOK_TIMEOUT_MS: '5000' });
  });
  afterAll(async () => {
    await h?.stop();
  });

  it('a receiver that hangs does not delay another subscription by more than a second', async () => {
    const hanging = (await h.receiver()).replyAlways({ hang: true });
    const healthy = await h.receiver();
    await h.register(hanging.url);
    await h.register(healthy.url);
    const sent: number[] = [];
    for (let i = 0; i < 30; i++) {
      sent.push(Date.now());
      await h.publish();
    }
    await healthy.waitForRequests(30, 10_000);
    const byEvent = new Map(healthy.requests.map((q) => [q.headers['svc-event-id'], q.at]));
    expect(byEvent.size).toBe(30);
    const lastSent = sent[sent.length - 1]!;
    const lastArrived = Math.max(...byEvent.values());
    // Every one of the healthy partner's deliveries arrived within a second of the last publish,
    // while the hanging partner held its (bounded) share of in-flight attempts for 5 s each.
    expect(lastArrived - lastSent).toBeLessThan(1000);
    expect(hanging.requests.length).toBeGreaterThan(0);
    expect(hanging.requests.length).toBeLessThanOrEqual(8);
  });

  it('hard-deletes delivery rows older than 30 days, payload included, and keeps newer ones', async () => {
    const models = registerModels(h.dispatcher.deps.mongo);
    const row = (ageDays: number) => ({
      _id: randomUUID(),
      tenantId: h.tenantId,
      subscriptionId: randomUUID(),
      eventId: randomUUID(),
      eventType: 'employee.created',
      occurredAt: new Date(),
      payload: '{"secret":"bytes"}',
      status: 'Succeeded',
      series: 1,
      attemptsMade: 1,
      totalAttempts: 1,
      attemptLog: [],
      lastStatusCode: 200,
      responseBody: null,
      nextAttemptAt: null,
      createdAt: new Date(Date.now() - ageDays * 86_400_000),
      updatedAt: new Date(),
    });
    const old = row(31);
    const recent = row(29);
    await models.Delivery.create([old, recent]);
    expect(await purgeOldDeliveries(models)).toBeGreaterThanOrEqual(1);
    expect(await models.Delivery.exists({ _id: old._id })).toBeNull();
    expect(await models.Delivery.exists({ _id: recent._id })).not.toBeNull();
  });
});
