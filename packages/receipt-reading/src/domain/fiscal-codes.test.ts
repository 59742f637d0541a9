import { parseFiscalCode } from './fiscal-codes';

describe('fiscal codes', () => {
  it('reads the Croatian QR: total in cents, issue date and time', () => {
    expect(
      parseFiscalCode('https://porezna.gov.hr/rn?jir=c84a1bd2-8a5b-1328-aa9c-11fb8be03de7&datv=20251126_0818&izn=866'),
    ).toEqual({
      market: 'HR',
      totalAmount: '8.66',
      date: '2025-11-26',
      time: '08:18',
    });
  });

  it('reads a ZKI code and an amount printed with a separator', () => {
    expect(
      parseFiscalCode('https://porezna.gov.hr/rn?zki=7a44c1e9a648ac6be0322fba54a045b0&datv=20260101_2359&izn=1234,50')
        ?.totalAmount,
    ).toBe('1234.50');
    expect(parseFiscalCode('https://porezna.gov.hr/rn?jir=x&datv=20260101_0000&izn=5')?.totalAmount).toBe('0.05');
  });

  it('refuses other hosts and malformed parameters', () => {
    expect(parseFiscalCode('https://example.com/rn?jir=x&datv=20260101_0000&izn=5')).toBeUndefined();
    expect(parseFiscalCode('https://porezna.gov.hr/rn?jir=x&datv=2026-01-01&izn=5')).toBeUndefined();
    expect(parseFiscalCode('https://porezna.gov.hr/rn?datv=20260101_0000&izn=5')).toBeUndefined();
  });

  it('reads the Slovenian 60-digit code: tax number and time, its check digit verified', () => {
    const zoi = '0'.repeat(39);
    const body = `${zoi}10000003260219185550`;
    const check = [...body].reduce((a, c) => a + Number(c), 0) % 10;
    expect(parseFiscalCode(`${body}${check}`)).toEqual({
      market: 'SI',
      date: '2026-02-19',
      time: '18:55:50',
      taxNumber: '10000003',
    });
    expect(parseFiscalCode(`${body}${(check + 1) % 10}`)).toBeUndefined();
  });
});
