import { EXCHANGE_RATE_RANGE, MAX_AMOUNT, decimal, nonNegativeAmount, outOfRange, positiveAmount } from './index';

describe('amount ranges (docs/decisions/0107)', () => {
  it('a non-negative amount: 0 and the maximum pass; below 0 and above the maximum are refused', () => {
    const range = nonNegativeAmount();
    expect(outOfRange('0', range)).toBeUndefined();
    expect(outOfRange(String(MAX_AMOUNT), range)).toBeUndefined();
    expect(outOfRange('-900000', range)).toBe('must be >= 0');
    expect(outOfRange('-0.01', range)).toBe('must be >= 0');
    expect(outOfRange('999999999.01', range)).toBe('must be <= 999999999');
  });

  it('a positive amount refuses 0', () => {
    expect(outOfRange('0', positiveAmount())).toBe('must be > 0');
    expect(outOfRange('0.01', positiveAmount())).toBeUndefined();
    expect(outOfRange(decimal('101'), positiveAmount(100))).toBe('must be <= 100');
  });

  it('a manual exchange rate lies above 0 and at most 1,000,000', () => {
    expect(outOfRange('0', EXCHANGE_RATE_RANGE)).toBe('must be > 0');
    expect(outOfRange('-1.5', EXCHANGE_RATE_RANGE)).toBe('must be > 0');
    expect(outOfRange('1000000', EXCHANGE_RATE_RANGE)).toBeUndefined();
    expect(outOfRange('1000000.0000000001', EXCHANGE_RATE_RANGE)).toBe('must be <= 1000000');
  });

  it('compares as decimals, not binary floats', () => {
    // 999999999.000000000001 is a double equal to 999999999; as decimal text it is above the maximum.
    expect(outOfRange('999999999.000000000001', nonNegativeAmount())).toBe('must be <= 999999999');
  });
});
