// Figures from @travel/regulations' tables (REGULATIONS.md): CZ 2026 Car 5.90 CZK/km, Natural 95 34.70,
// Natural 98 39.00, electricity 7.20 CZK/kWh; SK from 2026-01-01 Car 0.313 EUR/km; HR from 2024 Car 0.50.
import { expenseFields, priceMileage, type ExpenseInput } from './expense';

const CZ = { market: 'CZ' as const, baseCurrency: 'CZK' };
const price = (input: ExpenseInput, ctx: { market: 'CZ' | 'SK' | 'HR' | 'PL'; baseCurrency: string } = CZ) => {
  const { fields, errors } = expenseFields(input, ctx);
  expect(errors).toEqual({});
  return priceMileage(fields, ctx);
};

describe('Mileage pricing', () => {
  const row: ExpenseInput = {
    kind: 'Mileage',
    date: '2026-11-20',
    distanceKm: 120,
    fuelType: 'Petrol',
    fuelConsumption: 6.5,
  };

  it('CZ: rate per km plus the fuel part at the regulation average, 95 by default', () => {
    expect(price(row).price).toEqual({ amount: '978.66', ratePerKm: '5.90', fuelUnitPrice: '34.70' });
    expect(price({ ...row, mileagePetrolGrade: 'Octane98' }).price?.amount).toBe('1012.20');
    expect(price({ ...row, fuelType: 'Electric', fuelConsumption: 17 }).price?.amount).toBe('854.88'); // 708 + 20.4 kWh × 7.20
    expect(price({ ...row, fuelUnitPriceOverride: 36.5 }).price?.amount).toBe('992.70');
  });

  it('rounds once, half up, after summing exactly', () => {
    // 0.1 km × 5.90 = 0.59; fuel 0.1 × 6.5 / 100 × 34.70 = 0.225550 → 0.815550 → 0.82
    expect(price({ ...row, distanceKm: 0.1 }).price?.amount).toBe('0.82');
  });

  it('stores the grade only where it affects the price, and fuel fields only in CZ and SK', () => {
    expect(expenseFields(row, CZ).fields.mileagePetrolGrade).toBe('Octane95');
    expect(
      expenseFields({ ...row, fuelUnitPriceOverride: 36.5, mileagePetrolGrade: 'Octane98' }, CZ).fields
        .mileagePetrolGrade,
    ).toBeNull();
    expect(
      expenseFields({ ...row, fuelType: 'Diesel', mileagePetrolGrade: 'Octane98' }, CZ).fields.mileagePetrolGrade,
    ).toBeNull();
    const hr = expenseFields({ ...row, fuelUnitPriceOverride: 1.6 }, { market: 'HR', baseCurrency: 'EUR' }).fields;
    expect(hr).toMatchObject({
      fuelType: null,
      fuelConsumption: null,
      fuelUnitPriceOverride: null,
      mileagePetrolGrade: null,
    });
    expect(price(row, { market: 'HR', baseCurrency: 'EUR' }).price?.amount).toBe('60.00');
  });

  it('SK has no regulation fuel average: the receipt price is needed', () => {
    const sk = { market: 'SK' as const, baseCurrency: 'EUR' };
    expect(price({ ...row, fuelType: 'Diesel', distanceKm: 100, fuelConsumption: 5 }, sk).errors).toHaveProperty(
      'fuelUnitPriceOverride',
    );
    expect(
      price({ ...row, fuelType: 'Diesel', distanceKm: 100, fuelConsumption: 5, fuelUnitPriceOverride: 1.559 }, sk).price
        ?.amount,
    ).toBe('39.10');
  });

  it('PL needs its engine-size class', () => {
    const pl = { market: 'PL' as const, baseCurrency: 'PLN' };
    expect(price({ kind: 'Mileage', date: '2026-11-20', distanceKm: 100 }, pl).errors).toHaveProperty('vehicleKind');
    expect(
      price({ kind: 'Mileage', date: '2026-11-20', distanceKm: 100, vehicleKind: 'CarOver900cc' }, pl).price?.amount,
    ).toBe('115.00');
  });
});

describe('expense fields', () => {
  it('drops the vehicle and the mileage fields on other kinds; requires an amount there', () => {
    const { fields, errors } = expenseFields(
      { kind: 'Fuel', date: '2026-11-20', amount: 50, vehicleId: 'ABC', distanceKm: 10 },
      CZ,
    );
    expect(errors).toEqual({});
    expect(fields).toMatchObject({ vehicleId: null, distanceKm: null, vehicleKind: null, amount: '50.00' });
    expect(
      expenseFields({ kind: 'Toll', date: '2026-11-20' }, { ...CZ, prefix: 'expenses[3].' }).errors,
    ).toHaveProperty(['expenses[3].amount']);
  });

  it('a Mileage row is in the base currency', () => {
    expect(
      expenseFields(
        { kind: 'Mileage', date: '2026-11-20', distanceKm: 1, currencyCode: 'EUR' },
        { market: 'HR', baseCurrency: 'EUR' },
      ).errors,
    ).toEqual({});
    expect(
      expenseFields(
        { kind: 'Mileage', date: '2026-11-20', distanceKm: 1, currencyCode: 'USD' },
        { market: 'HR', baseCurrency: 'EUR' },
      ).errors,
    ).toHaveProperty('currencyCode');
  });
});

// Issue 22 §5: a CZ or SK mileage row naming a vehicle takes the vehicle's fuel type and consumption
// (technical certificate) unless it gives its own. CZ 2026 (vyhl. 573/2025 Sb.): Car 5.90 CZK/km,
// diesel 34.10 CZK/l, Natural 95 34.70 CZK/l, electricity 7.20 CZK/kWh.
describe('Mileage row with the vehicle’s fuel data', () => {
  const row: ExpenseInput = { kind: 'Mileage', date: '2026-11-20', distanceKm: 120, vehicleId: 'V-1' };
  const diesel = { fuelType: 'Diesel', fuelConsumption: '5.40' };
  const withVehicle = (input: ExpenseInput, vehicle: { fuelType: string | null; fuelConsumption: string | null }) =>
    expenseFields(input, { ...CZ, vehicle });
  const priced = (input: ExpenseInput, vehicle: { fuelType: string | null; fuelConsumption: string | null }) => {
    const { fields, errors } = withVehicle(input, vehicle);
    expect(errors).toEqual({});
    return { fields, ...priceMileage(fields, CZ) };
  };

  it('takes both from the vehicle and prices them at the decree’s price', () => {
    // 120 × 5.90 = 708.00; 120 × 5.40 / 100 = 6.48 l × 34.10 = 220.968; 928.968 → 928.97
    const { fields, price } = priced(row, diesel);
    expect(fields).toMatchObject({ fuelType: 'Diesel', fuelConsumption: '5.40', mileagePetrolGrade: null });
    expect(price).toEqual({ amount: '928.97', ratePerKm: '5.90', fuelUnitPrice: '34.10' });
  });

  it('the row’s own values win, each on its own', () => {
    // The row's petrol 6.5 l: 708 + 7.8 l × 34.70 = 978.66 (the vehicle's diesel figures are not used).
    expect(priced({ ...row, fuelType: 'Petrol', fuelConsumption: 6.5 }, diesel).price?.amount).toBe('978.66');
    // Only the consumption: the vehicle's diesel, 120 × 6 / 100 = 7.2 l × 34.10 = 245.52; 953.52
    expect(priced({ ...row, fuelConsumption: 6 }, diesel).price?.amount).toBe('953.52');
    // Only the fuel type, the vehicle's: its consumption too.
    expect(priced({ ...row, fuelType: 'Diesel' }, diesel).price?.amount).toBe('928.97');
  });

  it('an electric vehicle: kWh per 100 km at the electricity price', () => {
    // 120 × 16.80 / 100 = 20.16 kWh × 7.20 = 145.152; 708 + 145.152 = 853.152 → 853.15
    expect(priced(row, { fuelType: 'Electric', fuelConsumption: '16.80' }).price).toEqual({
      amount: '853.15',
      ratePerKm: '5.90',
      fuelUnitPrice: '7.20',
    });
  });

  it('a petrol vehicle is priced at the 95 average unless the row names 98', () => {
    const petrol = { fuelType: 'Petrol', fuelConsumption: '6.50' };
    expect(priced(row, petrol).price?.amount).toBe('978.66');
    expect(priced({ ...row, mileagePetrolGrade: 'Octane98' }, petrol).price?.amount).toBe('1012.20');
  });

  it('a vehicle without fuel data: the row still needs its own, and the error says why', () => {
    expect(withVehicle(row, { fuelType: null, fuelConsumption: null }).errors).toEqual({
      fuelType: ['is required on a Mileage row in CZ (the fuel part): the vehicle records no fuel type'],
      fuelConsumption: [
        'is required on a Mileage row in CZ (litres or kWh per 100 km): the vehicle records no fuel type',
      ],
    });
    expect(withVehicle(row, { fuelType: 'Diesel', fuelConsumption: null }).errors).toEqual({
      fuelConsumption: [
        'is required on a Mileage row in CZ (litres or kWh per 100 km): the vehicle records no consumption',
      ],
    });
  });

  it('a fuel the regulation does not price as it is (LPG, hybrids) is not taken', () => {
    expect(Object.keys(withVehicle(row, { fuelType: 'Hybrid', fuelConsumption: '4.50' }).errors)).toEqual([
      'fuelType',
      'fuelConsumption',
    ]);
    expect(withVehicle(row, { fuelType: 'Lpg', fuelConsumption: '8.00' }).errors.fuelType?.[0]).toContain(
      'fuel type Lpg is not priced as it is',
    );
    expect(
      priced({ ...row, fuelType: 'Petrol', fuelConsumption: 4.5 }, { fuelType: 'Hybrid', fuelConsumption: '4.50' })
        .price?.amount,
    ).toBe('895.38'); // 708 + 5.4 l × 34.70 = 895.38
  });

  it('the vehicle’s consumption is of its own fuel: a row naming another fuel gives its own figure', () => {
    expect(withVehicle({ ...row, fuelType: 'Electric' }, diesel).errors).toEqual({
      fuelConsumption: [
        "is required on a Mileage row in CZ (litres or kWh per 100 km): the vehicle's consumption is of Diesel, the row's fuel is Electric",
      ],
    });
  });

  it('stores the vehicle’s figure as a row’s own ("5.40"), so the GET body PUT back is the same row', () => {
    expect(withVehicle(row, { fuelType: 'Diesel', fuelConsumption: '5.4' }).fields.fuelConsumption).toBe('5.40');
    expect(withVehicle(row, { fuelType: 'Diesel', fuelConsumption: '5.4' }).fields).toEqual(
      withVehicle({ ...row, fuelType: 'Diesel', fuelConsumption: 5.4 }, diesel).fields,
    );
  });

  it('outside CZ and SK the vehicle’s fuel data plays no part', () => {
    const hr = { market: 'HR' as const, baseCurrency: 'EUR' };
    const { fields, errors } = expenseFields(row, { ...hr, vehicle: diesel });
    expect(errors).toEqual({});
    expect(fields).toMatchObject({ fuelType: null, fuelConsumption: null });
  });
});
