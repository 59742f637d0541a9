import { parseUsageRefused } from './usage-refused';

const V = '3F2B8A4E-1C7D-4E8A-9B1F-2A6C5D4E3F21';
const E = '0b6f3a52-8a53-4f55-9d2e-8f1d6a2b7c10';
const X = '6c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f';
const good = {
  id: 'e1',
  type: 'vehicle.usage-refused',
  tenantId: 't1',
  occurredAt: '2026-11-20T10:00:00.000Z',
  data: { vehicleId: V, entryId: E, expenseId: X, revision: 2, reason: 'VehicleNotFound' },
};

describe('fleet.vehicle.usage-refused', () => {
  it('parses the event of the schema, ids lower-cased', () => {
    expect(parseUsageRefused(good).data).toEqual({ ...good.data, vehicleId: V.toLowerCase() });
  });

  it('refuses anything else (parked as poison)', () => {
    for (const bad of [
      null,
      { ...good, type: 'vehicle.used' },
      { ...good, data: { ...good.data, revision: -1 } },
      { ...good, data: { ...good.data, expenseId: 'x' } },
      { ...good, data: { ...good.data, reason: 'Other' } },
      { ...good, tenantId: '' },
    ])
      expect(() => parseUsageRefused(bad)).toThrow();
  });
});
