import { checkAmount, costFields, isCalendarDate, minorUnits } from './cost';

describe('checkAmount (decimal strings, never floats)', () => {
  it.each([
    ['84.37', 'EUR', '84.37'],
    ['84.3', 'EUR', '84.30'],
    ['84', 'CZK', '84.00'],
    ['84.300', 'PLN', '84.30'],
    ['1500', 'JPY', '1500'],
    ['1.250', 'KWD', '1.250'],
    ['0.01', 'EUR', '0.01'],
    ['1234567890123.45', 'EUR', '1234567890123.45'],
  ])('%s %s is %s', (amount, currency, value) => {
    expect(checkAmount(amount, currency)).toEqual({ value });
  });

  it.each([
    ['84.375', 'EUR', 'decimal place'],
    ['1.5', 'JPY', 'decimal place'],
    ['0', 'EUR', 'greater than 0'],
    ['0.00', 'EUR', 'greater than 0'],
    ['-1', 'EUR', 'decimal number'],
    ['1e3', 'EUR', 'decimal number'],
    ['01.00', 'EUR', 'decimal number'],
    [' 1', 'EUR', 'decimal number'],
  ])('%s %s is refused (%s)', (amount, currency, problem) => {
    expect(checkAmount(amount, currency).problem).toContain(problem);
  });

  it('an unknown currency is a currency problem', () => {
    expect(minorUnits('XYZ')).toBeUndefined();
    expect(costFields({ date: '2026-10-01', kind: 'Fuel', amount: '1', currency: 'XYZ' }).errors).toEqual({
      currency: ['must be an ISO 4217 currency code'],
    });
  });
});

describe('costFields', () => {
  it('a calendar date that exists', () => {
    expect(isCalendarDate('2026-02-28')).toBe(true);
    expect(isCalendarDate('2026-02-29')).toBe(false);
    expect(Object.keys(costFields({ date: '2026-02-30', kind: 'Fuel', amount: '1', currency: 'EUR' }).errors)).toEqual([
      'date',
    ]);
  });

  it('omitted odometer and note are cleared; note trimmed', () => {
    expect(
      costFields({ date: '2026-10-01', kind: 'Toll', amount: '5', currency: 'EUR', note: '  A1 ' }).fields,
    ).toEqual({
      date: '2026-10-01',
      kind: 'Toll',
      amount: '5.00',
      currency: 'EUR',
      odometerKm: null,
      note: 'A1',
    });
  });
});
