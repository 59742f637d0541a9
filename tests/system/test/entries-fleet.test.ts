// Entries and the real fleet service together: a Mileage row claims a company vehicle, so the vehicle
// cannot be deleted while the row uses it (409); once the row is removed (entries.vehicle.released through
// the bus) the delete succeeds. The events entries publishes match contracts/events/ (JSON Schema).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { DOMAIN_EXCHANGE } from '@travel/platform';
import { eventually, repoRoot, type ApiClient } from '@travel/testkit';
import { startEntriesStack, type EntriesStack } from './support/entries-stack';

describe('entries with fleet', () => {
  let stack: EntriesStack;
  let api: ApiClient;

  beforeAll(async () => {
    stack = await startEntriesStack('entries-fleet', {}, { fleet: true });
    api = (await stack.tenant('CZ')).api;
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('a vehicle used by a Mileage row cannot be deleted until the row is removed', async () => {
    const v = await api.post('/api/v1/vehicles', {
      type: 'Company',
      name: 'Pool car',
      category: 1,
      fuelType: 'Diesel',
    });
    expect(v.status).toBe(201);
    const e = await api.post('/api/v1/travel-entries', {
      departureDate: '2026-11-20',
      returnDate: '2026-11-20',
      expenses: [
        {
          kind: 'Mileage',
          date: '2026-11-20',
          distanceKm: 50,
          vehicleId: v.body.id,
          fuelType: 'Diesel',
          fuelConsumption: 5,
        },
      ],
    });
    expect(e.status).toBe(201);
    expect(e.body.expenses[0].vehicle).toEqual({ id: v.body.id });
    // 50 × 5.90 + 2.5 l × 34.10 = 380.25 CZK
    expect(e.body.expenses[0].amount).toBe(380.25);

    const refused = await api.delete(`/api/v1/vehicles/${v.body.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('CONFLICT');

    expect((await api.delete(`/api/v1/travel-entries/${e.body.id}/expenses/${e.body.expenses[0].id}`)).status).toBe(
      204,
    );
    await eventually(async () => (await api.delete(`/api/v1/vehicles/${v.body.id}`)).status === 204, 15_000);
  });

  it('a deleted entry no longer counts as using its vehicle', async () => {
    const v = await api.post('/api/v1/vehicles', { type: 'Company', name: 'Van', category: 1 });
    const e = await api.post('/api/v1/travel-entries', {
      departureDate: '2026-11-20',
      returnDate: '2026-11-20',
      expenses: [
        {
          kind: 'Mileage',
          date: '2026-11-20',
          distanceKm: 10,
          vehicleId: v.body.id,
          fuelType: 'Diesel',
          fuelConsumption: 5,
        },
      ],
    });
    expect((await api.delete(`/api/v1/vehicles/${v.body.id}`)).status).toBe(409);
    expect((await api.delete(`/api/v1/travel-entries/${e.body.id}`)).status).toBe(204);
    await eventually(async () => (await api.delete(`/api/v1/vehicles/${v.body.id}`)).status === 204, 15_000);
  });

  it('another company’s vehicle is 400 under vehicleId, on Mileage and other rows', async () => {
    const other = (await stack.tenant('CZ')).api;
    const v = await other.post('/api/v1/vehicles', { type: 'Company', name: 'Theirs', category: 1 });
    const e = (await api.post('/api/v1/travel-entries', { departureDate: '2026-11-20', returnDate: '2026-11-20' }))
      .body;
    const res = await api.post(`/api/v1/travel-entries/${e.id}/expenses`, {
      kind: 'Mileage',
      date: '2026-11-20',
      distanceKm: 10,
      vehicleId: v.body.id,
      fuelType: 'Diesel',
      fuelConsumption: 5,
    });
    expect(res.status).toBe(400);
    expect(res.body.errors).toHaveProperty('vehicleId');
    // Also on a non-mileage row, where the vehicle would not be stored (fleet's look-up records no use).
    const parking = await api.post(`/api/v1/travel-entries/${e.id}/expenses`, {
      kind: 'Parking',
      date: '2026-11-20',
      amount: 3,
      vehicleId: v.body.id,
    });
    expect(parking.status).toBe(400);
    expect(parking.body.errors).toHaveProperty('vehicleId');
  });

  it('the vehicle events match their JSON Schemas in contracts/events', async () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    const schema = (name: string) =>
      ajv.compile(
        JSON.parse(readFileSync(join(repoRoot(), 'contracts', 'events', 'internal', `${name}.schema.json`), 'utf8')),
      );
    const validators: Record<string, ReturnType<typeof schema>> = {
      'entries.vehicle.used': schema('entries.vehicle.used'),
      'entries.vehicle.released': schema('entries.vehicle.released'),
    };
    const ch = await stack.entries.deps.amqp.channel();
    const queue = `entries-fleet-tap-${process.pid}`;
    await ch.assertQueue(queue, { durable: false, autoDelete: false });
    await ch.bindQueue(queue, DOMAIN_EXCHANGE, 'entries.vehicle.*');
    try {
      const v = await api.post('/api/v1/vehicles', { type: 'Company', name: 'Schema car', category: 1 });
      const e = await api.post('/api/v1/travel-entries', {
        departureDate: '2026-11-20',
        returnDate: '2026-11-20',
        expenses: [
          {
            kind: 'Mileage',
            date: '2026-11-20',
            distanceKm: 5,
            vehicleId: v.body.id,
            fuelType: 'Diesel',
            fuelConsumption: 5,
          },
        ],
      });
      expect((await api.delete(`/api/v1/travel-entries/${e.body.id}`)).status).toBe(204);
      const seen: { key: string; body: unknown }[] = [];
      await eventually(async () => {
        for (let m = await ch.get(queue, { noAck: true }); m; m = await ch.get(queue, { noAck: true }))
          seen.push({ key: m.fields.routingKey, body: JSON.parse(m.content.toString('utf8')) });
        return seen.filter((s) => (s.body as { data: { entryId: string } }).data.entryId === e.body.id).length >= 2;
      });
      for (const s of seen) {
        const validate = validators[s.key]!;
        expect({ key: s.key, valid: validate(s.body), errors: validate.errors ?? null }).toEqual({
          key: s.key,
          valid: true,
          errors: null,
        });
      }
    } finally {
      await ch.deleteQueue(queue);
    }
  });
});
