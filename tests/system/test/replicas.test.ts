// Issue 38 §1: the stack with 2 replicas of every service the partner walk-throughs use, each replica its own
// process on its own ports (bench/lib/reliability/stack.ts), the gateways and the services given each
// upstream as a list of its replicas (docs/decisions/0214). Through both gateways, as a partner behind a
// load balancer: two webhook subscriptions on a real HTTPS receiver, employees created, travel entries
// created, submitted (approved at once without a workflow: entry.updated, never entry.approved) and read,
// a payout batch. Every expected event
// arrives once per subscriber and verifies; every replica served requests, and both entries replicas
// served reads and writes of the API. On the shared test servers: nothing here kills the broker or the store.
import { join } from 'node:path';
import { verify } from '@travel/webhook-verify';
import { eventually, HttpsReceiver, repoRoot } from '@travel/testkit';
import { ensureTestTls } from '../../../packages/testkit/src/tls';
import { ReliabilityStack, type ServiceName } from '../../../bench/lib/reliability/stack';

const REPLICAS = 2;
const SERVICES: ServiceName[] = ['reference-fx', 'employees', 'entries', 'payouts', 'webhook-dispatcher', 'gateway'];
const EVENT_TYPES = ['employee.created', 'entry.created', 'entry.updated', 'entry.approved', 'entry.paidout'];
const EMPLOYEES = 2;
const ENTRIES = 4;

/** `http_requests_total` of one replica, summed by method, for the routes `route` matches. */
async function servedBy(opsUrl: string, route: RegExp): Promise<Record<string, number>> {
  const text = await (await fetch(`${opsUrl}/metrics`)).text();
  const out: Record<string, number> = {};
  for (const line of text.split('\n')) {
    const m = /^http_requests_total\{(.*)\} (\d+(?:\.\d+)?)$/.exec(line);
    if (!m) continue;
    const labels = Object.fromEntries([...m[1]!.matchAll(/(\w+)="([^"]*)"/g)].map((l) => [l[1], l[2]]));
    if (!route.test(labels.route ?? '')) continue;
    out[labels.method!] = (out[labels.method!] ?? 0) + Number(m[2]);
  }
  return out;
}

describe('two replicas of every service: the partner walk-throughs through the gateways', () => {
  let stack: ReliabilityStack;
  let receiver: HttpsReceiver;
  let apiKey: string;
  let turn = 0;

  beforeAll(async () => {
    receiver = await new HttpsReceiver(ensureTestTls(join(repoRoot(), '.local', 'test', 'tls'))).start();
    stack = await ReliabilityStack.start({
      stateDir: join(repoRoot(), '.local', 'test', `replicas-${process.pid}`),
      serviceEnv: {},
      slowMs: 0,
      log: () => undefined,
      services: SERVICES,
      replicas: REPLICAS,
      infra: 'shared',
    });
    ({ apiKey } = await stack.seed());
  }, 300_000);
  afterAll(async () => {
    await stack?.shutdown();
    await receiver?.stop();
  });

  /** One API call, sent to the gateway replicas in turn (a partner behind a load balancer). */
  async function call(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
    const gateway = stack.replicaUrl('gateway', turn++ % REPLICAS);
    const res = await fetch(`${gateway}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${apiKey}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  }

  it('delivers every event once per subscriber, verified, and every replica served its share', async () => {
    const subscriptions: Array<{ id: string; secret: string; path: string }> = [];
    for (const name of ['a', 'b']) {
      const sub = await call('POST', '/api/v1/webhooks', { url: `${receiver.url}/${name}`, eventTypes: EVENT_TYPES });
      expect(sub.status).toBe(201);
      subscriptions.push({ id: sub.body.id, secret: sub.body.signingSecret, path: `/hooks/${name}` });
    }

    const employees: string[] = [];
    for (let i = 0; i < EMPLOYEES; i++) {
      const created = await call('POST', '/api/v1/employees', { firstName: `Replica${i}`, lastName: 'Walk' });
      expect(created.status).toBe(201);
      employees.push(created.body.id);
    }

    const entries: string[] = [];
    for (let i = 0; i < ENTRIES; i++) {
      const created = await call('POST', '/api/v1/travel-entries', {
        departureDate: '2026-11-16',
        returnDate: '2026-11-18',
        currencyCode: 'CZK',
        expenses: [{ kind: 'Other', date: '2026-11-17', amount: 100 + i, currencyCode: 'CZK', description: 'Taxi' }],
      });
      expect(created.status).toBe(201);
      const id = created.body.id as string;
      const submitted = await call('POST', `/api/v1/travel-entries/${id}/submit`, {});
      expect(submitted.body?.status).toBe(3); // no approval workflow: approved at once
      expect((await call('GET', `/api/v1/travel-entries/${id}`)).body).toMatchObject({ id, status: 3 });
      entries.push(id);
    }

    // The payouts projection follows entry.approved on its own time: the batch once every entry is ready.
    await eventually(async () => {
      const ready = await call('GET', '/api/v1/payouts/ready?pageSize=100');
      return ready.status === 200 && entries.every((id) => ready.body.items.some((r: { id: string }) => r.id === id));
    }, 30_000);
    const batch = await call('POST', '/api/v1/payouts', { payoutMethod: 'Cash', entryIds: entries });
    expect(batch.status).toBe(201);
    expect(batch.body).toMatchObject({ entryCount: ENTRIES, totalToEmployees: 100 + 101 + 102 + 103 });

    // Every write that raises an event: 2 employee.created, and per entry entry.created, entry.updated (the
    // submit approved it at once: SPEC's catalog raises entry.approved only at a workflow's final step) and
    // entry.paidout; each once per subscription. Then a marker (one more employee) delivered to both,
    // after which no duplicate of the earlier ones is still on its way.
    const expected = [
      ...employees.map((id) => `employee.created ${id}`),
      ...entries.flatMap((id) => [`entry.created ${id}`, `entry.updated ${id}`, `entry.paidout ${id}`]),
    ].sort();
    const received = (path: string, secret: string) =>
      receiver.requests
        .filter((r) => r.path === path)
        .map((r) => {
          verify(r.body, r.headers as Record<string, string>, secret);
          const e = JSON.parse(r.body.toString('utf8')) as { id: string; type: string; data: { id: string } };
          return { eventId: e.id, key: `${e.type} ${e.data.id}` };
        });
    await eventually(
      async () =>
        subscriptions.every((s) => new Set(received(s.path, s.secret).map((e) => e.key)).size >= expected.length),
      60_000,
    ).catch((err: Error) => {
      const got = subscriptions.map(
        (s) =>
          `${s.path}: ${received(s.path, s.secret)
            .map((e) => e.key)
            .sort()
            .join('; ')}`,
      );
      throw new Error(`${err.message}; expected ${expected.join('; ')}; received ${got.join(' | ')}`);
    });
    const marker = await call('POST', '/api/v1/employees', { firstName: 'Marker', lastName: 'Walk' });
    expect(marker.status).toBe(201);
    const markerKey = `employee.created ${marker.body.id}`;
    await eventually(
      async () => subscriptions.every((s) => received(s.path, s.secret).some((e) => e.key === markerKey)),
      30_000,
    );
    for (const s of subscriptions) {
      const got = received(s.path, s.secret).filter((e) => e.key !== markerKey);
      // Once each: as many deliveries as expected events, and no event id twice.
      expect({ path: s.path, keys: got.map((e) => e.key).sort() }).toEqual({ path: s.path, keys: expected });
      expect(new Set(got.map((e) => e.eventId)).size).toBe(expected.length);
    }

    // Reads of each other service, two per gateway: each gateway's turn goes round the service's replicas.
    for (const path of ['/api/v1/company', '/api/v1/webhooks', '/api/v1/payouts', '/api/v1/reference/currencies'])
      for (let i = 0; i < 2 * REPLICAS; i++)
        expect({ path, status: (await call('GET', path)).status }).toEqual({ path, status: 200 });

    // Every replica served requests; both entries replicas served API reads and writes.
    const apiRoutes = /^\/api\/v1\/travel-entries/;
    for (let i = 0; i < REPLICAS; i++) {
      const entries = await servedBy(stack.child('entries', i)!.opsUrl!, apiRoutes);
      expect({ replica: i, reads: (entries.GET ?? 0) > 0, writes: (entries.POST ?? 0) > 0 }).toEqual({
        replica: i,
        reads: true,
        writes: true,
      });
      for (const name of ['gateway', 'employees', 'payouts', 'reference-fx', 'webhook-dispatcher'] as const) {
        const served = Object.values(await servedBy(stack.child(name, i)!.opsUrl!, /./)).reduce((a, b) => a + b, 0);
        expect({ name, replica: i, served: served > 0 }).toEqual({ name, replica: i, served: true });
      }
    }
  }, 150_000);
});
