// Every row of the spec's webhook delivery state table, on real RabbitMQ (TTL wait queues, schedule
// compressed to 100 ms per tier), a real MongoDB-wire store and real HTTPS receivers.
import { eventually } from '@travel/testkit';
import { startHarness, verified, type Harness } from './support/harness';

describe('webhook delivery states', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness('delivery-states');
  });
  afterAll(async () => {
    await h?.stop();
  });

  async function detail(subId: string, deliveryId: string) {
    return (await h.api('GET', `/api/v1/webhooks/${subId}/deliveries/${deliveryId}`)).body;
  }

  it('2xx → Succeeded after one attempt, no retry', async () => {
    const r = (await h.receiver()).replyAlways({ status: 204 });
    const sub = await h.register(r.url);
    const event = await h.publish();
    const [d] = await h.settled(sub.id, 1);
    expect(d).toMatchObject({ status: 'Succeeded', attempts: 1, lastStatusCode: 204, eventId: event.id });
    await new Promise((res) => setTimeout(res, 400));
    expect(r.requests).toHaveLength(1);
    expect(verified(r.requests[0]!, sub.signingSecret).eventId).toBe(event.id);
  });

  it.each([400, 401, 404, 410, 422, 302])('%i → Failed, never retried', async (status) => {
    const r = (await h.receiver()).replyAlways({
      status,
      body: `{"refused":${status}}`,
      headers: status === 302 ? { location: 'https://localhost:1/elsewhere' } : {},
    });
    const sub = await h.register(r.url);
    await h.publish();
    const [d] = await h.settled(sub.id, 1);
    expect(d).toMatchObject({ status: 'Failed', attempts: 1, lastStatusCode: status });
    await new Promise((res) => setTimeout(res, 500)); // several retry tiers' worth of time
    expect(r.requests).toHaveLength(1);
    expect((await detail(sub.id, d.deliveryId)).responseBody).toBe(`{"refused":${status}}`);
  });

  it.each([408, 429, 500, 503])('%i is retried on the schedule until a 2xx', async (status) => {
    const r = (await h.receiver()).replyNext({ status }, { status }).replyAlways({ status: 200 });
    const sub = await h.register(r.url);
    const event = await h.publish();
    const [d] = await h.settled(sub.id, 1);
    expect(d).toMatchObject({ status: 'Succeeded', attempts: 3 });
    const full = await detail(sub.id, d.deliveryId);
    expect(full.attemptLog.map((a: any) => [a.attempt, a.outcome, a.statusCode])).toEqual([
      [1, 'retry', status],
      [2, 'retry', status],
      [3, 'succeeded', 200],
    ]);
    // Same event id and the same bytes on every attempt, each signed afresh.
    expect(new Set(r.requests.map((q) => q.headers['svc-event-id']))).toEqual(new Set([event.id]));
    expect(new Set(r.requests.map((q) => q.body.toString()))).toEqual(new Set([full.payload]));
    for (const q of r.requests) verified(q, sub.signingSecret);
    // Retry-After is ignored: the tiers are 100 ms here, whatever the partner asks.
    expect(r.requests[2]!.at - r.requests[0]!.at).toBeLessThan(5000);
  });

  it('ignores Retry-After', async () => {
    const r = (await h.receiver())
      .replyNext({ status: 429, headers: { 'retry-after': '3600' } })
      .replyAlways({ status: 200 });
    const sub = await h.register(r.url);
    await h.publish();
    const [d] = await h.settled(sub.id, 1, 5000);
    expect(d).toMatchObject({ status: 'Succeeded', attempts: 2 });
  });

  it('a time-out (no answer within WEBHOOK_TIMEOUT_MS) is retried', async () => {
    const r = (await h.receiver()).replyNext({ hang: true }).replyAlways({ status: 200 });
    const sub = await h.register(r.url);
    await h.publish();
    const [d] = await h.settled(sub.id, 1);
    const full = await detail(sub.id, d.deliveryId);
    expect(full.attemptLog[0]).toMatchObject({ outcome: 'retry', statusCode: null });
    expect(full.attemptLog[0].error).toMatch(/no complete answer within 2000 ms/);
    expect(full.attemptLog[0].durationMs).toBeGreaterThanOrEqual(1900);
    expect(d).toMatchObject({ status: 'Succeeded', attempts: 2 });
  });

  it('a refused connection is retried through all 9 attempts, then Exhausted', async () => {
    const sub = await h.register('https://localhost:1/hooks');
    await h.publish();
    const [d] = await h.settled(sub.id, 1);
    const full = await detail(sub.id, d.deliveryId);
    expect(d).toMatchObject({ status: 'Exhausted', attempts: 9, lastStatusCode: null });
    expect(full.attemptLog.map((a: any) => a.outcome)).toEqual([...Array(8).fill('retry'), 'exhausted']);
    expect(full.attemptLog[0].error).toMatch(/ECONNREFUSED/);
  });

  it('after 9 failed attempts the delivery is Exhausted with the last body stored, cut to 2 KB', async () => {
    const big = 'x'.repeat(5000);
    const r = (await h.receiver()).replyAlways({ status: 503, body: big });
    const sub = await h.register(r.url);
    await h.publish();
    const [d] = await h.settled(sub.id, 1);
    expect(d).toMatchObject({ status: 'Exhausted', attempts: 9, lastStatusCode: 503 });
    expect(r.requests).toHaveLength(9);
    const full = await detail(sub.id, d.deliveryId);
    expect(Buffer.byteLength(full.responseBody)).toBe(2048);
    // Attempts are spaced by the wait queues, in order.
    const gaps = r.requests.slice(1).map((q, i) => q.at - r.requests[i]!.at);
    for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(90);
  });

  it('manual retry of a Failed delivery: same event id and bytes, fresh signature timestamp, a new series', async () => {
    const r = (await h.receiver()).replyNext({ status: 400 }).replyAlways({ status: 200 });
    const sub = await h.register(r.url);
    await h.publish();
    const [d] = await h.settled(sub.id, 1);
    expect(d.status).toBe('Failed');
    await new Promise((res) => setTimeout(res, 1100)); // so the signature's `t` (seconds) must differ

    const retried = await h.api('POST', `/api/v1/webhooks/${sub.id}/deliveries/${d.deliveryId}/retry`);
    expect(retried.status).toBe(202);
    await r.waitForRequests(2);
    const [first, second] = r.requests;
    expect(second!.headers['svc-event-id']).toBe(first!.headers['svc-event-id']);
    expect(second!.headers['svc-delivery-id']).toBe(first!.headers['svc-delivery-id']);
    expect(second!.body.equals(first!.body)).toBe(true);
    const t = (q: typeof first) => Number(/t=(\d+)/.exec(String(q!.headers['svc-signature']))![1]);
    expect(t(second)).toBeGreaterThan(t(first));
    verified(second!, sub.signingSecret);

    const done = await eventually(async () => {
      const x = await detail(sub.id, d.deliveryId);
      return x.status === 'Succeeded' ? x : undefined;
    });
    expect(done.attemptLog.map((a: any) => [a.series, a.attempt, a.outcome])).toEqual([
      [1, 1, 'failed'],
      [2, 1, 'succeeded'],
    ]);
    // Only Failed or Exhausted can be retried.
    const again = await h.api('POST', `/api/v1/webhooks/${sub.id}/deliveries/${d.deliveryId}/retry`);
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('INVALID_STATE');
  });

  it('manual retry of an Exhausted delivery runs a full new series', async () => {
    let healthy = false;
    const r = (await h.receiver()).replyWith(() => (healthy ? { status: 200 } : { status: 500 }));
    const sub = await h.register(r.url);
    await h.publish();
    const [d] = await h.settled(sub.id, 1);
    expect(d.status).toBe('Exhausted');
    healthy = true;
    expect((await h.api('POST', `/api/v1/webhooks/${sub.id}/deliveries/${d.deliveryId}/retry`)).status).toBe(202);
    const done = await eventually(async () => {
      const x = await detail(sub.id, d.deliveryId);
      return x.status === 'Succeeded' ? x : undefined;
    });
    expect(done.attempts).toBe(10);
    expect(r.requests).toHaveLength(10);
  });

  it('a delivery of another subscription is 404, and filters narrow the log', async () => {
    const r = await h.receiver();
    const a = await h.register(r.url);
    const b = await h.register(r.url);
    await h.publish();
    const [da] = await h.settled(a.id, 1);
    await h.settled(b.id, 1);
    expect((await h.api('GET', `/api/v1/webhooks/${b.id}/deliveries/${da.deliveryId}`)).status).toBe(404);
    expect((await h.api('POST', `/api/v1/webhooks/${b.id}/deliveries/${da.deliveryId}/retry`)).status).toBe(404);
    expect(await h.deliveries(a.id, '&status=Succeeded')).toHaveLength(1);
    expect(await h.deliveries(a.id, '&status=Failed')).toHaveLength(0);
    expect(await h.deliveries(a.id, '&eventType=entry.approved')).toHaveLength(0);
    expect((await h.api('GET', `/api/v1/webhooks/${a.id}/deliveries?status=Bogus`)).status).toBe(400);
    expect((await h.api('GET', `/api/v1/webhooks/${a.id}/deliveries?eventType=entry.deleted`)).status).toBe(400);
  });

  it('a subscription gets only its event types', async () => {
    const r = await h.receiver();
    const onlyApproved = await h.register(r.url, ['entry.approved']);
    await h.publish();
    await new Promise((res) => setTimeout(res, 500));
    expect(await h.deliveries(onlyApproved.id)).toHaveLength(0);
    expect(r.requests).toHaveLength(0);
  });

  it('counts attempts by outcome in /metrics', async () => {
    const text = await (await fetch(`${h.dispatcher.opsUrl}/metrics`)).text();
    expect(text).toMatch(/webhook_delivery_attempts_total\{[^}]*outcome="succeeded"[^}]*\} [1-9]/);
    expect(text).toMatch(/webhook_delivery_attempts_total\{[^}]*outcome="exhausted"[^}]*\} [1-9]/);
    expect(text).toMatch(/webhook_delivery_latency_seconds_count\{[^}]*event_type="employee.created"[^}]*\} [1-9]/);
  });
});
