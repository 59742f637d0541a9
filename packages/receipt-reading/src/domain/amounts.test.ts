import { compareAmounts, findAmounts, parseAmount } from './amounts';

describe('amounts as receipts print them', () => {
  it.each([
    ['123,40', '123.40'],
    ['123.40', '123.40'],
    ['1.234,56', '1234.56'],
    ['1 234,56', '1234.56'],
    ['1,234.56', '1234.56'],
    ['0,99', '0.99'],
  ])('%s is %s', (printed, value) => expect(parseAmount(printed)).toBe(value));

  it('finds every amount on a row, left to right, and no quantities or dates', () => {
    expect(findAmounts('  2 x 4,33      8,66').map((a) => a.value)).toEqual(['4.33', '8.66']);
    expect(findAmounts('PDV 13%   7,66  1,00').map((a) => a.value)).toEqual(['7.66', '1.00']);
    expect(findAmounts('26.11.2025.   08:18:41')).toEqual([]);
    expect(findAmounts('Račun br. 290/2/2')).toEqual([]);
  });

  it('compares decimal strings without floats', () => {
    expect(compareAmounts('1000.01', '999.99')).toBe(1);
    expect(compareAmounts('0.10', '0.10')).toBe(0);
  });
});
