import { formatAmount, formatDate, formatDateTime } from './format';

describe('printed amounts, dates and times (docs/decisions/0137)', () => {
  it('writes decimal text with a decimal comma; HR and SI group with a dot, CZ, SK and PL with a space', () => {
    expect(formatAmount('HR', '1234567.50')).toBe('1.234.567,50');
    expect(formatAmount('SI', '999.99')).toBe('999,99');
    expect(formatAmount('CZ', '1703.66')).toBe('1 703,66');
    expect(formatAmount('SK', '0.313')).toBe('0,313');
    expect(formatAmount('PL', '-296.34')).toBe('-296,34');
    expect(formatAmount('PL', '-1296.34')).toBe('-1 296,34');
    expect(formatAmount('CZ', '120')).toBe('120');
  });

  it('leaves an unknown amount empty (a line to fill by hand), never 0', () => {
    expect(formatAmount('HR', null)).toBe('');
    expect(formatAmount('HR', undefined)).toBe('');
  });

  it('writes dates day first and instants on the market’s wall clock (CET in winter, CEST in summer)', () => {
    expect(formatDate('2026-11-20')).toBe('20.11.2026');
    expect(formatDateTime('CZ', '2026-11-20T07:00:00Z')).toBe('20.11.2026 08:00');
    expect(formatDateTime('PL', '2026-07-01T22:30:00Z')).toBe('02.07.2026 00:30');
    expect(formatDateTime('HR', new Date('2026-03-29T01:00:00Z'))).toBe('29.03.2026 03:00');
    expect(formatDateTime('SI', null)).toBe('');
  });
});
