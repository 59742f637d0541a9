import { amountToWire } from '../http/mappers';
import { checkAmount, costFields, isCalendarDate } from './cost';

describe('checkAmount (JSON numbers read as decimals, never as floats)', () => {
  it.each([
    [84.37, 'EUR', '84.37'],
    [84.3, 'EUR', '84.30'],
    [84, 'CZK', '84.00'],
    [0.1, 'PLN', '0.10'],
    [1500, 'JPY', '1500'],
    [1.25, 'KWD', '1.250'],
    [999999998.999, 'KWD', '999999998.999'],
    [999999999, 'EUR', '999999999.00'],
  ])('%p %s is stored as %s and read back as the same number', (amount, currency, value) => {
    expect(checkAmount(amount, currency)).toEqual({ value });
    expect(amountToWire(value, currency)).toBe(amount);
  });

  it.each([
    [84.375, 'EUR', 'at most 2 decimal places'],
    [1.5, 'JPY', 'whole number'],
    [0, 'EUR', 'greater than 0'],
    [-1, 'EUR', 'greater than 0'],
    [9999999999999.99, 'EUR', 'must be <= 999999999'], // the product's maximum amount (decision 0107)
    ['84.37', 'EUR', 'greater'], // text passes the money package; the contract refuses strings first
  ])('%p %s: %s', (amount, currency, problem) => {
    const result = checkAmount(amount, currency);
    if (typeof amount === 'string') expect(result.value).toBe('84.37');
    else expect(result.problem).toContain(problem);
  });

  it('an unknown currency is a currency problem', () => {
    expect(costFields({ date: '2026-10-01', kind: 'Fuel', amount: 1, currency: 'XYZ' }).errors).toEqual({
      currency: ['must be an ISO 4217 currency code'],
    });
  });
});

describe('costFields', () => {
  it('a calendar date that exists', () => {
    expect(isCalendarDate('2026-02-28')).toBe(true);
    expect(isCalendarDate('2026-02-29')).toBe(false);
    expect(Object.keys(costFields({ date: '2026-02-30', kind: 'Fuel', amount: 1, currency: 'EUR' }).errors)).toEqual([
      'date',
    ]);
  });

  it('omitted odometer and note are cleared; note trimmed', () => {
    expect(costFields({ date: '2026-10-01', kind: 'Toll', amount: 5, currency: 'EUR', note: '  A1 ' }).fields).toEqual({
      date: '2026-10-01',
      kind: 'Toll',
      amount: '5.00',
      currency: 'EUR',
      odometerKm: null,
      note: 'A1',
    });
  });
});
