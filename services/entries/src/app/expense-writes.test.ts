import { vehicleEvents } from './expense-writes';

const A = 'aaaaaaaa-0000-4000-8000-000000000001';
const B = 'bbbbbbbb-0000-4000-8000-000000000002';
const now = new Date('2026-11-20T10:00:00Z');
const row = (vehicleId: string | null, revision: number) => ({ _id: 'x', vehicleId, revision });
const summary = (events: ReturnType<typeof vehicleEvents>) =>
  events.map((e) => [
    e.routingKey,
    (e.data as { vehicleId: string }).vehicleId,
    (e.data as { revision: number }).revision,
    (e.data as { reason?: string }).reason,
  ]);

describe('vehicle events of an expense change', () => {
  it('used when a row starts naming a vehicle, released when it stops, both when it changes', () => {
    expect(summary(vehicleEvents('t', 'e', undefined, row(A, 0), 'ExpenseRemoved', now))).toEqual([
      ['entries.vehicle.used', A, 0, undefined],
    ]);
    expect(summary(vehicleEvents('t', 'e', row(A, 0), row(B, 1), 'VehicleChanged', now))).toEqual([
      ['entries.vehicle.released', A, 1, 'VehicleChanged'],
      ['entries.vehicle.used', B, 1, undefined],
    ]);
    expect(summary(vehicleEvents('t', 'e', row(A, 3), undefined, 'EntryDeleted', now))).toEqual([
      ['entries.vehicle.released', A, 4, 'EntryDeleted'],
    ]);
    expect(vehicleEvents('t', 'e', row(A, 0), row(A, 1), 'VehicleChanged', now)).toEqual([]);
    expect(vehicleEvents('t', 'e', row(null, 0), row(null, 1), 'VehicleChanged', now)).toEqual([]);
  });
});
