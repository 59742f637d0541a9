import { NO_POLICY } from '@travel/contracts';
import { decimal } from '@travel/money';
import { AppError, type CallerContext } from '@travel/platform';
import { testCaller } from '@travel/testkit/src/doubles';
import { PerDiemCalculator } from './per-diem-calculator';
import type { CurrencyConverter } from './ports';

const caller = (market: CallerContext['market'], baseCurrency: string) => testCaller({ market, baseCurrency });

// PL, Warsaw 06:00 → Austria 08:00–22:00 → home: Austria 57 EUR for > 12 h (REGULATIONS.md, Poland).
const toAustria = {
  stops: [
    { time: '2026-11-03T05:00:00Z', countryCode: 'PL' },
    { time: '2026-11-03T07:00:00Z', countryCode: 'AT' },
    { time: '2026-11-03T21:00:00Z', countryCode: 'PL' },
    { time: '2026-11-03T23:00:00Z', countryCode: 'PL' },
  ],
};

const noEmployees = { perDiemProfileOf: async () => null };
const noPolicy = { policyOf: async () => NO_POLICY };

describe('PerDiemCalculator', () => {
  it('converts a foreign row on the trip start date (0056) and sums the total in the base currency', async () => {
    const asked: unknown[] = [];
    const fx: CurrencyConverter = {
      convert: async (input) => {
        asked.push(input);
        return { baseAmount: decimal(input.amount).times('4.2558').toFixed(2), source: 'NBP' };
      },
    };
    const result = await new PerDiemCalculator(noEmployees, fx, noPolicy).calculate(caller('PL', 'PLN'), toAustria);
    expect(asked).toEqual([{ market: 'PL', amount: '57', currency: 'EUR', date: '2026-11-03', manualRate: null }]);
    const at = result.items.find((r) => r.countryCode === 'AT')!;
    expect(at.amountInBaseCurrency!.toFixed(2)).toBe('242.58');
    expect(at.exchangeRateSource).toBe('NBP');
    const sum = result.items.reduce((s, r) => s.plus(r.amountInBaseCurrency!), decimal(0));
    expect(result.total!.equals(sum)).toBe(true);
    expect(result.complete).toBe(true);
  });

  it('a missing exchange rate: the row says why, the total is null (0057)', async () => {
    const fx: CurrencyConverter = {
      convert: async () => {
        throw new AppError('EXCHANGE_RATE_UNAVAILABLE', 'No NBP rate for EUR on or before 2026-11-03.');
      },
    };
    const result = await new PerDiemCalculator(noEmployees, fx, noPolicy).calculate(caller('PL', 'PLN'), toAustria);
    const at = result.items.find((r) => r.countryCode === 'AT')!;
    expect(at.amount!.toString()).toBe('57');
    expect(at.amountInBaseCurrency).toBeNull();
    expect(at.reason).toContain('No EUR rate');
    expect(result).toMatchObject({ total: null, complete: false });
  });

  it('a dependency that does not answer is not an unknown: the error propagates (503)', async () => {
    const fx: CurrencyConverter = {
      convert: async () => {
        throw new AppError('SERVICE_UNAVAILABLE', 'reference-fx is unreachable');
      },
    };
    await expect(
      new PerDiemCalculator(noEmployees, fx, noPolicy).calculate(caller('PL', 'PLN'), toAustria),
    ).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
  });

  it('an employee outside the company is a field error; engine input errors are 400 with their keys', async () => {
    const fx: CurrencyConverter = { convert: async () => ({ baseAmount: '0.00', source: null }) };
    const calc = new PerDiemCalculator(noEmployees, fx, noPolicy);
    await expect(calc.calculate(caller('PL', 'PLN'), { ...toAustria, employeeId: 'x' })).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
      errors: { employeeId: expect.any(Array) },
    });
    await expect(
      calc.calculate(caller('PL', 'PLN'), { stops: [toAustria.stops[1]!, toAustria.stops[0]!] }),
    ).rejects.toMatchObject({ code: 'VALIDATION_FAILED', errors: { 'stops[1].time': expect.any(Array) } });
  });
});

// Issue 34 §2 (docs/decisions/0188): the calculator reads the company's per-country rates as entries do.
// SI abroad in 2026: no statutory rate (research: "2026 amounts UNVERIFIED"); 8–14 h is 75 % of the rate.
describe('PerDiemCalculator: the company policy’s per-country rates', () => {
  const toAustria2026 = {
    stops: [
      { time: '2026-03-02T05:00:00Z', countryCode: 'SI' },
      { time: '2026-03-02T07:00:00Z', countryCode: 'AT' },
      { time: '2026-03-02T21:00:00Z', countryCode: 'SI' },
      { time: '2026-03-02T22:00:00Z', countryCode: 'SI' },
    ],
  };
  const noFx: CurrencyConverter = {
    convert: async () => {
      throw new Error('EUR rows of an SI company need no conversion');
    },
  };

  it('without a rate the row is unknown; with one it is priced, the total complete', async () => {
    const without = await new PerDiemCalculator(noEmployees, noFx, noPolicy).calculate(
      caller('SI', 'EUR'),
      toAustria2026,
    );
    expect(without.items.find((r) => r.countryCode === 'AT')).toMatchObject({ amount: null, rateBasis: null });
    expect(without.total).toBeNull();

    const asked: string[] = [];
    const policies = {
      policyOf: async (tenantId: string) => {
        asked.push(tenantId);
        return {
          sector: 'Private' as const,
          versions: [
            {
              effectiveFrom: '2026-01-01',
              domesticBands: [],
              foreignBaseRatePercent: null,
              foreignRates: [
                {
                  countryCode: 'AT',
                  amount: '50.00',
                  currencyCode: 'EUR',
                  confirmedBy: 'emp_anna',
                  confirmedAt: '2026-02-01T09:00:00.000Z',
                },
              ],
            },
          ],
        };
      },
    };
    const si = caller('SI', 'EUR');
    const withRate = await new PerDiemCalculator(noEmployees, noFx, policies).calculate(si, toAustria2026);
    expect(asked).toEqual([si.tenantId]);
    expect(withRate.items.find((r) => r.countryCode === 'AT')).toMatchObject({
      amount: decimal('37.50'),
      amountInBaseCurrency: decimal('37.50'),
      rateBasis: 'CompanyRate',
      source: { act: 'Company per-diem policy from 2026-01-01' },
    });
    expect(withRate.complete).toBe(true);
  });
});
