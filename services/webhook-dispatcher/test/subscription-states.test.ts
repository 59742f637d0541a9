// The subscription state table: 10 consecutive Exhausted deliveries disable it (a success in between
// resets the count); a disabled subscription gets no new deliveries; delete + register is the way back.
import { eventually } from '@travel/testkit';
import { employeeEvent, startHarness, type Harness } from './support/harness';

describe('webhook subscription states', () => {
  let h: Harness;
  beforeAll(async () => {
    // A short schedule keeps ten exhausted series to a few seconds.
    h = await startHarness('subscription-states', {
      WEBHOOK_RETRY_SCHEDULE: '20ms,20ms,20ms,20ms,20ms,20ms,20ms,20ms',
    });
  });
  afterAll(async () => {
    await h?.stop();
  });

  const sub = async (id: string) => (await h.api('GET', `/api/v1/webhooks/${id}`)).body;
  // The count is updated just after a delivery's final status is written: wait for it.
  const countBecomes = (id: string, n: number) =>
    eventually(async () => ((await sub(id)).consecutiveExhausted === n ? true : undefined), 5000);

  it('is disabled after 10 consecutive Exhausted deliveries, then gets no new deliveries', async () => {
    const r = (await h.receiver()).replyAlways({ status: 500 });
    const s = await h.register(r.url);
    for (let i = 0; i < 10; i++) await h.publish();
    const items = await h.settled(s.id, 10, 40_000);
    expect(items.every((d: any) => d.status === 'Exhausted')).toBe(true);

    const disabled = await eventually(async () => {
      const x = await sub(s.id);
      return x.IsActive === false ? x : undefined;
    });
    expect(disabled.DisabledAt).toEqual(expect.any(String));
    expect(disabled.DisabledReason).toMatch(/10 consecutive deliveries exhausted/);
    expect(Date.parse(disabled.DisabledAt)).toBeLessThanOrEqual(Date.now());

    const before = r.requests.length;
    await h.publish();
    await new Promise((res) => setTimeout(res, 500));
    expect(await h.deliveries(s.id)).toHaveLength(10);
    expect(r.requests.length).toBe(before);

    // A manual retry cannot bring it back; only delete, then register anew (with a new secret).
    const retry = await h.api('POST', `/api/v1/webhooks/${s.id}/deliveries/${items[0].deliveryId}/retry`);
    expect(retry.status).toBe(409);
    expect(retry.body.code).toBe('INVALID_STATE');
    expect((await h.api('DELETE', `/api/v1/webhooks/${s.id}`)).status).toBe(204);
    expect((await h.api('GET', `/api/v1/webhooks/${s.id}`)).status).toBe(404);
    r.replyAlways({ status: 200 });
    const again = await h.register(r.url);
    expect(again.signingSecret).not.toBe(s.signingSecret);
    expect((await sub(again.id)).IsActive).toBe(true);
    await h.publish();
    const [d] = await h.settled(again.id, 1);
    expect(d.status).toBe('Succeeded');
  });

  it('a success between Exhausted deliveries resets the count', async () => {
    // The receiver fails everything except events whose employee is called "Healthy".
    const r = (await h.receiver()).replyWith((req) =>
      JSON.parse(req.body.toString()).data.lastName === 'Healthy' ? { status: 200 } : { status: 503 },
    );
    const s = await h.register(r.url);
    for (let i = 0; i < 9; i++) await h.publish();
    await h.settled(s.id, 9, 40_000);
    await countBecomes(s.id, 9);

    await h.publish(employeeEvent(h.tenantId, 'Healthy'));
    await h.settled(s.id, 10);
    await countBecomes(s.id, 0);

    for (let i = 0; i < 9; i++) await h.publish();
    await h.settled(s.id, 19, 40_000);
    await countBecomes(s.id, 9);
    await new Promise((res) => setTimeout(res, 300)); // nothing more arrives to push it to 10
    const after = await sub(s.id);
    expect(after).toMatchObject({ IsActive: true, consecutiveExhausted: 9, DisabledAt: null });
  });

  it("is another tenant's 404 for every operation", async () => {
    const r = await h.receiver();
    const s = await h.register(r.url);
    const other = '99999999-9999-4999-8999-999999999999';
    for (const [method, path] of [
      ['GET', `/api/v1/webhooks/${s.id}`],
      ['DELETE', `/api/v1/webhooks/${s.id}`],
      ['GET', `/api/v1/webhooks/${s.id}/deliveries`],
    ] as const) {
      const res = await h.api(method, path, undefined, other);
      expect(res.status).toBe(404);
    }
    expect((await h.api('GET', '/api/v1/webhooks', undefined, other)).body.total).toBe(0);
  });
});
