// The vehicle of a Mileage row, through the gateway, with a stand-in for fleet's internal claim API
// (fleet's decision 0032): a vehicle outside the company is 400, a claimed one is kept and announced
// with entries.vehicle.used on the bus; changing, removing the row or deleting the entry publishes
// entries.vehicle.released; a create that stores nothing gives its claims back (claims/abandon).
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DOMAIN_EXCHANGE } from '@travel/platform';
import { eventually, type ApiClient } from '@travel/testkit';
import { startEntriesStack, type EntriesStack } from './support/entries-stack';

const CAR = '3f2b8a4e-1c7d-4e8a-9b1f-2a6c5d4e3f21';
const VAN = '7a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';
const FOREIGN = '0f0e0d0c-0b0a-4909-8807-060504030201';

interface Call {
  path: string;
  body: { entryId: string; expenseId: string; revision: number };
}

/** fleet's `POST /internal/tenants/{t}/vehicles/{id}/claims[/abandon]`: CAR and VAN exist in every company. */
function fakeFleet(): Promise<{ server: Server; url: string; calls: Call[] }> {
  const calls: Call[] = [];
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const path = req.url ?? '';
      calls.push({ path, body: JSON.parse(raw || '{}') });
      const lookup = /^\/internal\/tenants\/[^/]+\/vehicles\/([^/]+)$/.exec(path);
      if (lookup && req.method === 'GET')
        return void res
          .writeHead([CAR, VAN].includes(lookup[1]!) ? 200 : 404, { 'content-type': 'application/json' })
          .end('{}');
      const m = /^\/internal\/tenants\/[^/]+\/vehicles\/([^/]+)\/claims(\/abandon)?$/.exec(path);
      if (!m || req.method !== 'POST') return void res.writeHead(404).end();
      if (m[2]) return void res.writeHead(204).end();
      if (![CAR, VAN].includes(m[1]!)) return void res.writeHead(404).end();
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: m[1] }));
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, calls }),
    ),
  );
}

describe('entries: vehicles on Mileage rows', () => {
  let stack: EntriesStack;
  let fleet: Awaited<ReturnType<typeof fakeFleet>>;
  let api: ApiClient;
  let tenantId: string;
  let ch: Awaited<ReturnType<EntriesStack['entries']['deps']['amqp']['channel']>>;
  const queue = `entries-vehicle-tap-${process.pid}`;

  beforeAll(async () => {
    fleet = await fakeFleet();
    stack = await startEntriesStack('entries-vehicles', { FLEET_URL: fleet.url });
    const t = await stack.tenant('HR');
    api = t.api;
    tenantId = t.tenantId;
    ch = await stack.entries.deps.amqp.channel();
    await ch.assertQueue(queue, { durable: false, autoDelete: false });
    await ch.bindQueue(queue, DOMAIN_EXCHANGE, 'entries.vehicle.*');
  });
  afterAll(async () => {
    await ch?.deleteQueue(queue).catch(() => undefined);
    await stack?.stop();
    await new Promise((r) => fleet?.server.close(r));
  });

  /** The next vehicle events on the bus, until `count` arrived. */
  async function busEvents(count: number) {
    const got: any[] = [];
    await eventually(async () => {
      for (;;) {
        const m = await ch.get(queue, { noAck: true });
        if (!m) break;
        const body = JSON.parse(m.content.toString('utf8'));
        if (body.tenantId === tenantId) got.push({ routingKey: m.fields.routingKey, ...body });
      }
      return got.length >= count;
    });
    return got;
  }

  const mileage = (vehicleId: string | null, extra: Record<string, unknown> = {}) => ({
    kind: 'Mileage',
    date: '2026-11-20',
    distanceKm: 42,
    vehicleId,
    ...extra,
  });

  it('claims the vehicle, keeps it, publishes vehicle.used; changing and removing it publish vehicle.released', async () => {
    const e = (await api.post('/api/v1/travel-entries', { departureDate: '2026-11-20', returnDate: '2026-11-20' }))
      .body;
    const created = await api.post(`/api/v1/travel-entries/${e.id}/expenses`, mileage(CAR));
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ vehicleId: CAR, vehicle: { id: CAR }, amount: 21 }); // 42 km × 0.50 EUR
    const x = created.body.id;
    expect(fleet.calls.find((c) => c.body.expenseId === x)).toEqual({
      path: `/internal/tenants/${tenantId}/vehicles/${CAR}/claims`,
      body: { entryId: e.id, expenseId: x, revision: 0 },
    });
    const [used] = await busEvents(1);
    expect(used).toMatchObject({
      routingKey: 'entries.vehicle.used',
      type: 'vehicle.used',
      data: { vehicleId: CAR, entryId: e.id, expenseId: x, revision: 0 },
    });
    expect(Object.keys(used.data).sort()).toEqual(['entryId', 'expenseId', 'revision', 'vehicleId']);

    // Another vehicle: released (VehicleChanged) and used, revision 1.
    const moved = await api.put(`/api/v1/travel-entries/${e.id}/expenses/${x}`, { ...created.body, vehicleId: VAN });
    expect(moved.body.vehicle).toEqual({ id: VAN });
    const change = await busEvents(2);
    expect(change.map((m) => [m.type, m.data.vehicleId, m.data.revision, m.data.reason]).sort()).toEqual(
      [
        ['vehicle.released', CAR, 1, 'VehicleChanged'],
        ['vehicle.used', VAN, 1, undefined],
      ].sort(),
    );

    // The row removed: released (ExpenseRemoved).
    expect((await api.delete(`/api/v1/travel-entries/${e.id}/expenses/${x}`)).status).toBe(204);
    const [removed] = await busEvents(1);
    expect(removed.data).toMatchObject({ vehicleId: VAN, expenseId: x, reason: 'ExpenseRemoved' });
  });

  it('deleting the entry releases its vehicles (EntryDeleted)', async () => {
    const e = (
      await api.post('/api/v1/travel-entries', {
        departureDate: '2026-11-20',
        returnDate: '2026-11-20',
        expenses: [mileage(CAR)],
      })
    ).body;
    expect(e.expenses[0].vehicle).toEqual({ id: CAR });
    await busEvents(1);
    expect((await api.delete(`/api/v1/travel-entries/${e.id}`)).status).toBe(204);
    const [released] = await busEvents(1);
    expect(released).toMatchObject({
      type: 'vehicle.released',
      data: { vehicleId: CAR, entryId: e.id, expenseId: e.expenses[0].id, reason: 'EntryDeleted' },
    });
  });

  it("fleet's usage-refused (the vehicle was deleted meanwhile) clears the row's vehicle and raises entry.updated", async () => {
    const e = (
      await api.post('/api/v1/travel-entries', {
        departureDate: '2026-11-20',
        returnDate: '2026-11-20',
        expenses: [mileage(VAN)],
      })
    ).body;
    await busEvents(1);
    const x = e.expenses[0];
    const refusal = (revision: number) => ({
      id: randomUUID(),
      type: 'vehicle.usage-refused',
      tenantId,
      occurredAt: new Date().toISOString(),
      data: { vehicleId: VAN, entryId: e.id, expenseId: x.id, revision, reason: 'VehicleNotFound' },
    });
    const publish = (body: unknown) =>
      ch.publish(DOMAIN_EXCHANGE, 'fleet.vehicle.usage-refused', Buffer.from(JSON.stringify(body)), {
        persistent: true,
        messageId: (body as { id: string }).id,
        contentType: 'application/json',
      });
    // A refusal of another revision does not apply; the one of the stored revision does.
    publish(refusal(7));
    publish(refusal(0));
    const cleared = await eventually(async () => {
      const got = (await api.get(`/api/v1/travel-entries/${e.id}/expenses/${x.id}`)).body;
      return got.vehicle === null ? got : undefined;
    });
    expect(cleared).toMatchObject({ vehicleId: null, vehicle: null, amount: x.amount, distanceKm: 42 });
    expect((await api.get(`/api/v1/travel-entries/${e.id}`)).body.editedAt > e.editedAt).toBe(true);
  });

  it('a vehicle outside the company is 400 VALIDATION_FAILED under vehicleId', async () => {
    const e = (await api.post('/api/v1/travel-entries', { departureDate: '2026-11-20', returnDate: '2026-11-20' }))
      .body;
    const res = await api.post(`/api/v1/travel-entries/${e.id}/expenses`, mileage(FOREIGN));
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_FAILED');
    expect(res.body.errors).toHaveProperty('vehicleId');
  });

  it('on a non-mileage row the vehicle is not stored, but one outside the company is 400 (single-expense endpoints)', async () => {
    const e = (await api.post('/api/v1/travel-entries', { departureDate: '2026-11-20', returnDate: '2026-11-20' }))
      .body;
    const path = `/api/v1/travel-entries/${e.id}/expenses`;
    const outside = await api.post(path, { kind: 'Parking', date: '2026-11-20', amount: 5, vehicleId: FOREIGN });
    expect(outside.status).toBe(400);
    expect(outside.body.errors).toHaveProperty('vehicleId');
    const ours = await api.post(path, { kind: 'Parking', date: '2026-11-20', amount: 5, vehicleId: CAR });
    expect(ours.status).toBe(201);
    expect(ours.body).toMatchObject({ vehicleId: null, vehicle: null });
    // PUT: the same rule, also when nothing else changes.
    expect((await api.put(`${path}/${ours.body.id}`, { ...ours.body, vehicleId: FOREIGN })).status).toBe(400);
    expect((await api.put(`${path}/${ours.body.id}`, { ...ours.body, vehicleId: VAN })).body.vehicle).toBeNull();
    // No claim was made for either: nothing is recorded as a use.
    expect(fleet.calls.filter((c) => c.body.expenseId === ours.body.id)).toEqual([]);
    // On the entry create a vehicle on a non-mileage row is simply ignored.
    const created = await api.post('/api/v1/travel-entries', {
      departureDate: '2026-11-20',
      returnDate: '2026-11-20',
      expenses: [{ kind: 'Fuel', date: '2026-11-20', amount: 40, vehicleId: FOREIGN }],
    });
    expect(created.status).toBe(201);
    expect(created.body.expenses[0].vehicle).toBeNull();
  });

  it('an entry create that stores nothing gives its claims back', async () => {
    const res = await api.post('/api/v1/travel-entries', {
      departureDate: '2026-11-20',
      returnDate: '2026-11-20',
      expenses: [
        mileage(CAR),
        { kind: 'Other', date: '2026-11-20', amount: 1, currencyCode: 'USD', manualExchangeRate: 2 },
      ],
    });
    expect(res.status).toBe(400);
    const claim = fleet.calls.filter((c) => c.path.endsWith(`/vehicles/${CAR}/claims`)).at(-1)!;
    await eventually(async () =>
      fleet.calls.some((c) => c.path.endsWith('/claims/abandon') && c.body.expenseId === claim.body.expenseId),
    );
    expect(fleet.calls.find((c) => c.path.endsWith('/claims/abandon'))!.body).toEqual(claim.body);
  });
});
