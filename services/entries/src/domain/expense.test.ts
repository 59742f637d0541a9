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
