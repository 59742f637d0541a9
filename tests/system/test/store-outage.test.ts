// Issue 9, item 4: the dispatcher's store goes away for 10 s while employees keep being created through
// the gateway. Every event still reaches the partner once, signed, as if nothing happened; the
// dispatcher backs off instead of spinning, and parks nothing.
//
// The dispatcher runs on its own FerretDB (a temporary data directory, a free port), stopped and started
// again by this test; the shared test FerretDB (employees, the rest) is never touched, so the stream of
// events keeps flowing during the outage.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { verify } from '@travel/webhook-verify';
import { eventually, freePort, repoRoot, type HttpsReceiver } from '@travel/testkit';
import { startFerretDb } from '@travel/testkit/src/infra/ferretdb';
import type { ManagedProcess } from '@travel/testkit/src/infra/processes';
import { managementAuth } from '@travel/testkit/src/infra/rabbitmq';
import { startE2eStack, type E2eStack } from './support/stack';

const OUTAGE_MS = 10_000;

describe('the dispatcher store stops for 10 s under a stream of events', () => {
  let stack: E2eStack;
  let store: ManagedProcess | undefined;
  let stateDir: string;
  let port: number;

  beforeAll(async () => {
    stateDir = mkdtempSync(join(tmpdir(), 'dispatcher-store-'));
    port = await freePort();
    store = await startFerretDb(repoRoot(), stateDir, port);
    stack = await startE2eStack('outage', {}, { dispatcherEnv: { MONGO_URL: `mongodb://127.0.0.1:${port}` } });
  }, 60_000);
  afterAll(async () => {
    await stack?.stop();
    await store?.stop();
    rmSync(stateDir, { recursive: true, force: true });
  });

  /** Queues of this test's vhost with their total (ready + unacknowledged) messages. */
  async function queues(): Promise<Map<string, number>> {
    const { managementUrl } = stack.env.infra;
    const res = await fetch(`${managementUrl}/api/queues/${encodeURIComponent(stack.env.vhost)}`, {
      headers: { authorization: managementAuth() },
    });
    const list = (await res.json()) as Array<{ name: string; messages?: number }>;
    return new Map(list.map((q) => [q.name, q.messages ?? 0]));
  }

  async function dispatcherMetric(name: string, labels: string): Promise<number> {
    const text = await (await fetch(`${stack.dispatcher.opsUrl}/metrics`)).text();
    const line = text
      .split('\n')
      .find((l) => l.startsWith(`${name}{`) && labels.split(',').every((x) => l.includes(x)));
    return line ? Number(line.split(' ').at(-1)) : 0;
  }

  it('delivers every event exactly once after the store comes back, and parks nothing', async () => {
    const { api } = await stack.tenant('CZ');
    const receiver: HttpsReceiver = await stack.receiver();
    const sub = await api.post('/api/v1/webhooks', { url: receiver.url, eventTypes: ['employee.created'] });
    expect(sub.status).toBe(201);
    const secret: string = sub.body.signingSecret;

    const created: string[] = [];
    const createOne = async (n: number) => {
      const res = await api.post('/api/v1/employees', { firstName: 'Ivo', lastName: `Outage ${n}` });
      expect(res.status).toBe(201);
      created.push(res.body.id);
    };

    // Before: the store is up.
    for (let n = 0; n < 5; n++) await createOne(n);
    await receiver.waitForRequests(5, 20_000);

    // The outage: the dispatcher's store is stopped for 10 s while events keep coming.
    await store!.stop();
    const until = Date.now() + OUTAGE_MS;
    for (let n = 5; Date.now() < until; n++) {
      await createOne(n);
      await new Promise((r) => setTimeout(r, 400)); // pacing of the stream, not a wait for an outcome
    }
    const duringOutage = created.length - 5;
    store = await startFerretDb(repoRoot(), stateDir, port);

    // After: a few more, then a marker event created last.
    for (let n = 100; n < 103; n++) await createOne(n);
    const marker = await api.post('/api/v1/employees', { firstName: 'Marker', lastName: 'Last' });
    expect(marker.status).toBe(201);
    const all = [...created, marker.body.id];

    const received = () =>
      receiver.requests.map((r) => {
        const { envelope, eventId } = verify(r.body, r.headers as Record<string, string>, secret);
        return { eventId, employeeId: (envelope.data as { id: string }).id };
      });
    await eventually(async () => received().some((e) => e.employeeId === marker.body.id), 90_000, 200);
    // Nothing is left anywhere in flight: every queue but the parking ones is empty (marker-based, then
    // state-based; no fixed wait).
    const settled = await eventually(async () => {
      const q = await queues();
      const busy = [...q].filter(([name, n]) => !name.endsWith('.parking') && n > 0);
      return busy.length === 0 ? q : undefined;
    }, 60_000);

    // Every event arrived, once, verified with the SDK.
    const got = received();
    expect(duringOutage).toBeGreaterThanOrEqual(10);
    expect(got.map((e) => e.employeeId).sort()).toEqual([...all].sort());
    expect(new Set(got.map((e) => e.eventId)).size).toBe(all.length);

    // The delivery log shows nothing unusual: one successful attempt each.
    const log = await api.get(`/api/v1/webhooks/${sub.body.id}/deliveries?pageSize=100`);
    expect(log.status).toBe(200);
    expect(log.body.items).toHaveLength(all.length);
    for (const d of log.body.items) expect(d).toMatchObject({ status: 'Succeeded', attempts: 1, lastStatusCode: 200 });

    // Nothing parked: the parking queues are empty and the gauge the alert watches says 0.
    for (const queue of ['webhook-dispatcher.events', 'webhook-dispatcher.attempts']) {
      expect(settled.get(`${queue}.parking`)).toBe(0);
      expect(await dispatcherMetric('amqp_parked_messages', `queue="${queue}"`)).toBe(0);
      expect(await dispatcherMetric('amqp_messages_handled_total', `queue="${queue}",outcome="parked"`)).toBe(0);
    }
    // And the outage was real: the fan-out failed and was delayed through the back-off queues.
    expect(
      await dispatcherMetric('amqp_messages_handled_total', 'queue="webhook-dispatcher.events",outcome="retry"'),
    ).toBeGreaterThan(0);
  }, 180_000);
});
