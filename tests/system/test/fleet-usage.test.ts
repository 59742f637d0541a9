// The vehicle usage projection (issue 11 "Usage from the entries context"; SPEC States: Vehicle): fleet
// learns which live mileage expenses use a vehicle from the entries context's internal events
// (contracts/events/), published here on the bus as entries will publish them. A vehicle in use cannot be
// deleted (409, unchanged); removed expenses and deleted entries do not count. A delete racing a first use
// never leaves a use of a deleted vehicle (docs/decisions/0032).
import { randomUUID } from 'node:crypto';
import amqp, { type ChannelModel, type ConfirmChannel } from 'amqplib';
import { DOMAIN_EXCHANGE, Inbox } from '@travel/platform';
import { eventually, type ApiClient } from '@travel/testkit';
import { startFleetStack, type FleetStack } from './support/fleet-stack';

interface Usage {
  vehicleId: string;
  entryId: string;
  expenseId: string;
  revision: number;
  reason?: string;
}

describe('vehicle usage from the entries context', () => {
  let stack: FleetStack;
  let api: ApiClient;
  let tenantId: string;
  let conn: ChannelModel;
  let ch: ConfirmChannel;
  const refusedQueue = 'test.usage-refused';

  beforeAll(async () => {
    stack = await startFleetStack('fleet-usage');
    const t = await stack.tenant('SK');
    api = t.api;
    tenantId = t.tenantId;
    conn = await amqp.connect(stack.env.amqpUrl);
    ch = await conn.createConfirmChannel();
    await ch.assertQueue(refusedQueue, { durable: false });
    await ch.bindQueue(refusedQueue, DOMAIN_EXCHANGE, 'fleet.vehicle.usage-refused');
  });
  afterAll(async () => {
    await conn?.close();
    await stack?.stop();
  });

  async function vehicle(extra: Record<string, unknown> = {}): Promise<any> {
    const res = await api.post('/api/v1/vehicles', { type: 'Company', name: 'Pool car', category: 1, ...extra });
    if (res.status !== 201) throw new Error(`creating a vehicle: ${res.status} ${res.text}`);
    return res.body;
  }

  const use = (vehicleId: string, revision = 1): Usage => ({
    vehicleId,
    entryId: randomUUID(),
    expenseId: randomUUID(),
    revision,
  });

  /** Publishes an event as the entries context's relay does. */
  async function publish(type: 'vehicle.used' | 'vehicle.released', data: Usage, tenant = tenantId, id = randomUUID()) {
    const event = { id, type, tenantId: tenant, occurredAt: new Date().toISOString(), data };
    ch.publish(DOMAIN_EXCHANGE, `entries.${type}`, Buffer.from(JSON.stringify(event)), {
      persistent: true,
      messageId: id,
      contentType: 'application/json',
    });
    await ch.waitForConfirms();
    return event;
  }

  /** Waits until fleet has processed an event (its inbox marks it done after the projection is written). */
  const processed = (eventId: string) =>
    eventually(async () => new Inbox(stack.fleet.deps.mongo).seen('fleet.vehicle-usage', eventId));

  async function publishAndWait(type: 'vehicle.used' | 'vehicle.released', data: Usage, tenant = tenantId) {
    const event = await publish(type, data, tenant);
    await processed(event.id);
    return event;
  }

  /** The synchronous claim the entries context makes before storing a mileage expense (or gives back). */
  const claim = (vehicleId: string, body: Omit<Usage, 'vehicleId'>, tenant = tenantId, action = '') =>
    fetch(`${stack.fleet.url}/internal/tenants/${tenant}/vehicles/${vehicleId}/claims${action}`, {
      method: 'POST',
      headers: stack.env.serviceHeaders('entries', 'fleet'),
      body: JSON.stringify(body),
    });

  it('a vehicle on a live mileage expense cannot be deleted (409, unchanged); once released it can (204)', async () => {
    const v = await vehicle();
    const u = use(v.id);
    await publishAndWait('vehicle.used', u);
    const refused = await api.delete(`/api/v1/vehicles/${v.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('CONFLICT');
    expect(refused.body.detail).toContain('1 live mileage expense');
    expect((await api.get(`/api/v1/vehicles/${v.id}`)).body).toEqual(v);

    await publishAndWait('vehicle.released', { ...u, revision: 2, reason: 'ExpenseRemoved' });
    expect((await api.delete(`/api/v1/vehicles/${v.id}`)).status).toBe(204);
  });

  it('archive and unarchive work on a vehicle in use; the delete rule is the same archived or not', async () => {
    const v = await vehicle();
    const u = use(v.id);
    await publishAndWait('vehicle.used', u);
    expect((await api.post(`/api/v1/vehicles/${v.id}/archive`)).body.isArchived).toBe(true);
    expect((await api.delete(`/api/v1/vehicles/${v.id}`)).status).toBe(409);
    expect((await api.post(`/api/v1/vehicles/${v.id}/unarchive`)).body.isArchived).toBe(false);
    await publishAndWait('vehicle.released', { ...u, revision: 2 });
    await api.post(`/api/v1/vehicles/${v.id}/archive`);
    expect((await api.delete(`/api/v1/vehicles/${v.id}`)).status).toBe(204);
  });

  it('a deleted entry releases each of its expenses; the vehicle is free only when none is left', async () => {
    const v = await vehicle();
    const entryId = randomUUID();
    const a = { ...use(v.id), entryId };
    const b = { ...use(v.id), entryId };
    const other = use(v.id);
    for (const u of [a, b, other]) await publishAndWait('vehicle.used', u);
    expect((await api.delete(`/api/v1/vehicles/${v.id}`)).body.detail).toContain('3 live mileage expenses');
    await publishAndWait('vehicle.released', { ...a, revision: 2, reason: 'EntryDeleted' });
    await publishAndWait('vehicle.released', { ...b, revision: 2, reason: 'EntryDeleted' });
    expect((await api.delete(`/api/v1/vehicles/${v.id}`)).body.detail).toContain('1 live mileage expense');
    await publishAndWait('vehicle.released', { ...other, revision: 5, reason: 'VehicleChanged' });
    expect((await api.delete(`/api/v1/vehicles/${v.id}`)).status).toBe(204);
  });

  it('many uses of one vehicle arriving together are all counted, and all releases free it', async () => {
    const v = await vehicle();
    const uses = Array.from({ length: 12 }, () => use(v.id));
    const used = await Promise.all(uses.map((u) => publish('vehicle.used', u)));
    await Promise.all(used.map((e) => processed(e.id)));
    expect((await api.delete(`/api/v1/vehicles/${v.id}`)).body.detail).toContain('12 live mileage expenses');
    const released = await Promise.all(uses.map((u) => publish('vehicle.released', { ...u, revision: 2 })));
    await Promise.all(released.map((e) => processed(e.id)));
    expect((await api.delete(`/api/v1/vehicles/${v.id}`)).status).toBe(204);
  });

  it('redelivered and reordered events are harmless: a late, older use does not block again', async () => {
    const v = await vehicle();
    const u = use(v.id, 1);
    const used = await publishAndWait('vehicle.used', u);
    await publishAndWait('vehicle.released', { ...u, revision: 2 });
    // The same event again (a redelivery): the inbox makes it a no-op.
    await publish('vehicle.used', u, tenantId, used.id);
    // An older use under a new event id (reordered): stale, ignored.
    await publishAndWait('vehicle.used', u);
    expect((await api.delete(`/api/v1/vehicles/${v.id}`)).status).toBe(204);

    // A release that overtakes its use: the use arrives later with an older revision and changes nothing.
    const w = await vehicle();
    const early = use(w.id, 7);
    await publishAndWait('vehicle.released', { ...early, revision: 8 });
    await publishAndWait('vehicle.used', early);
    expect((await api.delete(`/api/v1/vehicles/${w.id}`)).status).toBe(204);
  });

  it("another tenant's event does not touch this company's vehicle", async () => {
    const v = await vehicle();
    await publishAndWait('vehicle.used', use(v.id), randomUUID());
    expect((await api.delete(`/api/v1/vehicles/${v.id}`)).status).toBe(204);
  });

  it('a use of a vehicle that no longer exists is reported back (fleet.vehicle.usage-refused)', async () => {
    const v = await vehicle();
    expect((await api.delete(`/api/v1/vehicles/${v.id}`)).status).toBe(204);
    const u = use(v.id, 3);
    await publishAndWait('vehicle.used', u);
    // Other tests' refusals (another tenant's event) may be queued first: find this expense's.
    const msg = await eventually(async () => {
      const m = await ch.get(refusedQueue, { noAck: true });
      return m && JSON.parse(m.content.toString('utf8')).data.expenseId === u.expenseId ? m : undefined;
    });
    const refused = JSON.parse(msg.content.toString('utf8'));
    expect(refused).toMatchObject({
      type: 'vehicle.usage-refused',
      tenantId,
      data: { vehicleId: v.id, entryId: u.entryId, expenseId: u.expenseId, revision: 3, reason: 'VehicleNotFound' },
    });
    expect(msg.fields.routingKey).toBe('fleet.vehicle.usage-refused');
  });

  it('a message that is not a usage event is parked, and later events still flow', async () => {
    ch.publish(DOMAIN_EXCHANGE, 'entries.vehicle.used', Buffer.from('{"type":"vehicle.used","data":{}}'), {
      persistent: true,
      messageId: randomUUID(),
    });
    await ch.waitForConfirms();
    await eventually(async () =>
      (await ch.checkQueue('fleet.vehicle-usage.parking')).messageCount >= 1 ? true : undefined,
    );
    const v = await vehicle();
    await publishAndWait('vehicle.used', use(v.id));
    expect((await api.delete(`/api/v1/vehicles/${v.id}`)).status).toBe(409);
  });

  describe('the synchronous claim (entries checks the vehicle before it stores a mileage expense)', () => {
    it("answers the vehicle's figures and records the use at once; the later event is the same use", async () => {
      const v = await vehicle({ fuelType: 'Diesel', fuelConsumption: 5.4, engineCapacityCc: 1968, enginePowerKw: 110 });
      const u = use(v.id);
      const res = await claim(v.id, u);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({
        id: v.id,
        type: 'Company',
        ownerEmployeeId: null,
        isArchived: false,
        fuelType: 'Diesel',
        // Decimal text across the seam: it is priced with money (docs/decisions/0133).
        fuelConsumption: '5.40',
        category: 1,
        engineCapacityCc: 1968,
        enginePowerKw: 110,
      });
      expect((await api.delete(`/api/v1/vehicles/${v.id}`)).status).toBe(409);
      await publishAndWait('vehicle.used', u);
      await publishAndWait('vehicle.released', { ...u, revision: 2 });
      expect((await api.delete(`/api/v1/vehicles/${v.id}`)).status).toBe(204);
    });

    it('a claim whose expense was not stored is given back at once; its late use still counts', async () => {
      const v = await vehicle();
      const u = use(v.id, 3);
      expect((await claim(v.id, u)).status).toBe(200);
      expect((await api.delete(`/api/v1/vehicles/${v.id}`)).status).toBe(409);
      expect((await claim(v.id, u, tenantId, '/abandon')).status).toBe(204);
      // Had the expense been stored after all, its vehicle.used of that revision blocks the delete again.
      await publishAndWait('vehicle.used', u);
      expect((await api.delete(`/api/v1/vehicles/${v.id}`)).status).toBe(409);
      await publishAndWait('vehicle.released', { ...u, revision: 4 });
      expect((await claim(v.id, use(v.id), tenantId, '/abandon')).status).toBe(204); // nothing to give back
      expect((await api.delete(`/api/v1/vehicles/${v.id}`)).status).toBe(204);
      expect((await claim(v.id, u, tenantId, '/abandon')).status).toBe(204); // the vehicle is gone: still 204
    });

    it("is 404 for an unknown vehicle or another company's; 400 for a bad body; refused without a service context", async () => {
      const v = await vehicle();
      expect((await claim(randomUUID(), use(v.id))).status).toBe(404);
      expect((await claim(v.id, use(v.id), randomUUID())).status).toBe(404);
      expect((await claim(v.id, { entryId: 'x', expenseId: randomUUID(), revision: -1 })).status).toBe(400);
      const anonymous = await fetch(`${stack.fleet.url}/internal/tenants/${tenantId}/vehicles/${v.id}/claims`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(use(v.id)),
      });
      expect(anonymous.status).toBe(401);
      // Not reachable through the gateway.
      expect((await api.post(`/internal/tenants/${tenantId}/vehicles/${v.id}/claims`, use(v.id))).status).toBe(404);
    });

    it('a delete racing a first use: exactly one wins, never a use of a deleted vehicle', async () => {
      const outcomes = new Set<string>();
      for (let round = 0; round < 8; round++) {
        const v = await vehicle();
        const [claimed, deleted] = await Promise.all([claim(v.id, use(v.id)), api.delete(`/api/v1/vehicles/${v.id}`)]);
        const pair = `${claimed.status}/${deleted.status}`;
        outcomes.add(pair);
        expect(['200/409', '404/204']).toContain(pair);
        if (claimed.status === 200) expect((await api.get(`/api/v1/vehicles/${v.id}`)).status).toBe(200);
        else expect((await api.get(`/api/v1/vehicles/${v.id}`)).status).toBe(404);
      }
      expect(outcomes.size).toBeGreaterThan(0);
    });
  });
});
