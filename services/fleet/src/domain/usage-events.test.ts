import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseVehicleUsageEvent } from './usage-events';

// The parser and contracts/events/ describe the same messages.
const schema = (name: string) =>
  JSON.parse(readFileSync(join(__dirname, '../../../../contracts/events/internal', `${name}.schema.json`), 'utf8'));

const event = (type: string, data: Record<string, unknown> = {}) => ({
  id: '0d7e7f0c-3a8e-4b5e-9c1e-8f2b1a6c5d40',
  type,
  tenantId: 'tenant-1',
  occurredAt: '2026-10-10T10:00:00.000Z',
  data: {
    vehicleId: '3F2B8A4E-1C7D-4E8A-9B1F-2A6C5D4E3F21',
    entryId: '8d0c1f3a-52b7-4a8e-a0f4-6c1d2b3e4f50',
    expenseId: '5b1e2c3d-4f5a-4b6c-8d7e-9f0a1b2c3d4e',
    revision: 2,
    ...data,
  },
});

describe('vehicle usage events', () => {
  it.each(['entries.vehicle.used', 'entries.vehicle.released'])(
    '%s: the schema requires what the parser requires',
    (name) => {
      const s = schema(name);
      expect(s.required).toEqual(['id', 'type', 'tenantId', 'occurredAt', 'data']);
      expect(s.properties.data.required).toEqual(['vehicleId', 'entryId', 'expenseId', 'revision']);
      expect(s.properties.type.const).toBe(name.replace(/^entries\./, ''));
    },
  );

  it('parses both types; ids are compared in lower case', () => {
    expect(parseVehicleUsageEvent(event('vehicle.used')).data.vehicleId).toBe('3f2b8a4e-1c7d-4e8a-9b1f-2a6c5d4e3f21');
    expect(parseVehicleUsageEvent(event('vehicle.released', { reason: 'EntryDeleted' })).data).toHaveProperty(
      'reason',
      'EntryDeleted',
    );
  });

  it.each([
    ['another type', event('vehicle.bought')],
    ['a vehicle id that is not a uuid', event('vehicle.used', { vehicleId: '42' })],
    ['no revision', event('vehicle.used', { revision: undefined })],
    ['a negative revision', event('vehicle.used', { revision: -1 })],
    ['an unknown release reason', event('vehicle.released', { reason: 'Whim' })],
    ['no tenant', { ...event('vehicle.used'), tenantId: '' }],
    ['not an object', 'vehicle.used'],
  ])('refuses %s', (_label, body) => {
    expect(() => parseVehicleUsageEvent(body)).toThrow('not a vehicle usage event');
  });
});
