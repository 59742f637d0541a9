import { testCaller } from '@travel/testkit/src/doubles';
import { checkExpense, vehicleEvents } from './expense-writes';
import type { VehicleDirectory } from './ports';

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

describe('checkExpense reads the vehicle only when a CZ or SK mileage row lacks fuel data', () => {
  const cz = testCaller({ market: 'CZ', baseCurrency: 'CZK' });
  const asked: string[] = [];
  const vehicles = {
    fuelData: async (_t: string, id: string) => {
      asked.push(id);
      return id === A ? { fuelType: 'Diesel', fuelConsumption: '5.40' } : null;
    },
  } as unknown as VehicleDirectory;
  const mileage = { kind: 'Mileage' as const, date: '2026-11-20', distanceKm: 120 };
  beforeEach(() => (asked.length = 0));

  it('takes the vehicle’s figures; a row with its own asks nobody', async () => {
    const checked = await checkExpense(vehicles, cz, { ...mileage, vehicleId: A.toUpperCase() });
    expect(checked.errors).toEqual({});
    expect(checked.fields).toMatchObject({ vehicleId: A, fuelType: 'Diesel', fuelConsumption: '5.40' });
    await checkExpense(vehicles, cz, { ...mileage, vehicleId: A, fuelType: 'Petrol', fuelConsumption: 6.5 });
    await checkExpense(vehicles, testCaller({ market: 'HR', baseCurrency: 'EUR' }), { ...mileage, vehicleId: A });
    expect(asked).toEqual([A]);
  });

  it('another company’s vehicle is refused under vehicleId', async () => {
    const checked = await checkExpense(vehicles, cz, { ...mileage, vehicleId: B }, 'expenses[1].');
    expect(checked.errors['expenses[1].vehicleId']).toEqual(['must be a vehicle of this company']);
  });
});
