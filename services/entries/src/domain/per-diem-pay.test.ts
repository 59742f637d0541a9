// A row's pay under the override or the company policy, and its tax-free part and taxable excess (issue 22
// §2). CZ foreign rows are unknown in the tables today (the MF decree's rates are being added), so the
// CZ foreign base rate is shown on rows with the engine's shape; figures worked out by hand.
import { MARKET_PROFILES } from '@travel/per-diem';
import { MARKETS } from '@travel/regulations';
import { STATUTORY_FLOOR_MARKETS, type PerDiemPolicy } from '@travel/contracts';
import { payOfRow, type StatutoryRow } from './per-diem-pay';

const czForeign75: PerDiemPolicy = {
  sector: 'Private',
  versions: [{ effectiveFrom: '2026-01-01', domesticBands: [], foreignBaseRatePercent: '75.00' }],
};
const foreignRow = (amount: string | null, grossAmount = amount): StatutoryRow => ({
  kind: 'Foreign',
  date: '2026-03-02',
  band: 'full',
  grossAmount,
  amount,
  overrideAmount: null,
});

describe('payOfRow', () => {
  it('CZ abroad at 75 % of the decree rate: 50 € pays 37.50 €, all of it tax-free', () => {
    expect(payOfRow('CZ', foreignRow('50.00'), czForeign75)).toEqual({
      payableAmount: '37.50',
      taxFreeAmount: '37.50',
      excessAmount: '0.00',
      policyEffectiveFrom: '2026-01-01',
      warnings: [],
    });
  });

  it('CZ abroad: two thirds of 50 € (33.33 €) at 75 % is 25.00 € (24.9975 half-up); a free meal scales alike', () => {
    expect(payOfRow('CZ', foreignRow('33.33'), czForeign75).payableAmount).toBe('25.00');
    // Full day, one free meal: 50 − 25 % = 37.50; × 75 % = 28.125 → 28.13.
    expect(payOfRow('CZ', foreignRow('37.50', '50.00'), czForeign75).payableAmount).toBe('28.13');
  });

  it('the percentage is CZ only, and a row before the first version pays the statutory amount', () => {
    expect(payOfRow('SK', foreignRow('45.00'), czForeign75)).toMatchObject({
      payableAmount: '45.00',
      excessAmount: null,
    });
    expect(payOfRow('CZ', { ...foreignRow('50.00'), date: '2025-12-31' }, czForeign75)).toMatchObject({
      payableAmount: '50.00',
      policyEffectiveFrom: null,
    });
  });

  it('an unknown statutory amount: no policy applies; an override is paid as it is, its split unknown', () => {
    expect(payOfRow('CZ', foreignRow(null), czForeign75)).toEqual({
      payableAmount: null,
      taxFreeAmount: null,
      excessAmount: null,
      policyEffectiveFrom: null,
      warnings: [],
    });
    expect(payOfRow('CZ', { ...foreignRow(null), overrideAmount: '1200.00' }, czForeign75)).toMatchObject({
      payableAmount: '1200.00',
      taxFreeAmount: null,
      excessAmount: null,
    });
  });

  it('a later decree above the policy: the statutory minimum is paid, with a warning (CZ, SK, PL)', () => {
    const policy: PerDiemPolicy = {
      sector: 'Private',
      versions: [
        {
          effectiveFrom: '2025-01-01',
          domesticBands: [{ band: '5-12h', amount: '150.00' }],
          foreignBaseRatePercent: null,
        },
      ],
    };
    const row: StatutoryRow = {
      kind: 'Domestic',
      date: '2026-03-02',
      band: '5-12h',
      grossAmount: '155.00',
      amount: '155.00',
      overrideAmount: null,
    };
    const pay = payOfRow('CZ', row, policy);
    expect(pay).toMatchObject({ payableAmount: '155.00', taxFreeAmount: '155.00', excessAmount: '0.00' });
    expect(pay.warnings).toEqual([
      expect.stringContaining('below the statutory minimum 155.00 in force on 2026-03-02'),
    ]);
  });

  it("the floor markets are the engine's StatutoryMinimum markets", () => {
    expect([...STATUTORY_FLOOR_MARKETS].sort()).toEqual(
      MARKETS.filter((m) => MARKET_PROFILES[m].taxTreatment === 'StatutoryMinimum').sort(),
    );
  });
});

// Issue 34 §2 (docs/decisions/0188): a row the engine priced with the company's per-country rate (no
// statutory rate on its date) pays that rate; only a confirmed reported figure has a tax-free part.
describe('payOfRow: rows priced with the company rate', () => {
  const policy: PerDiemPolicy = {
    sector: 'Private',
    versions: [
      {
        effectiveFrom: '2026-01-01',
        domesticBands: [],
        foreignBaseRatePercent: '75.00',
        foreignRates: [
          {
            countryCode: 'AL',
            amount: '33.00',
            currencyCode: 'EUR',
            confirmedBy: 'emp_anna',
            confirmedAt: '2026-02-01T09:00:00.000Z',
          },
        ],
      },
    ],
  };
  const companyRow = (rateBasis: StatutoryRow['rateBasis'], amount = '33.00'): StatutoryRow => ({
    ...foreignRow(amount),
    rateBasis,
  });

  it('the company’s own rate: pays it, tax-free part and excess unknown, the policy named', () => {
    expect(payOfRow('SI', companyRow('CompanyRate', '37.50'), policy)).toEqual({
      payableAmount: '37.50',
      taxFreeAmount: null,
      excessAmount: null,
      policyEffectiveFrom: '2026-01-01',
      warnings: [],
    });
  });

  it('a confirmed reported figure: tax-free up to it, nothing taxable', () => {
    expect(payOfRow('SK', companyRow('CompanyConfirmedReported'), policy)).toEqual({
      payableAmount: '33.00',
      taxFreeAmount: '33.00',
      excessAmount: '0.00',
      policyEffectiveFrom: '2026-01-01',
      warnings: [],
    });
  });

  it('the CZ foreign base rate percentage is not applied again to a company rate', () => {
    expect(payOfRow('CZ', companyRow('CompanyConfirmedReported'), policy).payableAmount).toBe('33.00');
    expect(payOfRow('CZ', companyRow('CompanyRate', '40.00'), policy).payableAmount).toBe('40.00');
  });

  it('an override above a confirmed figure: the excess is taxable; on the company’s own rate it stays unknown', () => {
    expect(payOfRow('SK', { ...companyRow('CompanyConfirmedReported'), overrideAmount: '40.00' }, policy)).toEqual({
      payableAmount: '40.00',
      taxFreeAmount: '33.00',
      excessAmount: '7.00',
      policyEffectiveFrom: null,
      warnings: [],
    });
    expect(payOfRow('SI', { ...companyRow('CompanyRate'), overrideAmount: '40.00' }, policy)).toMatchObject({
      payableAmount: '40.00',
      taxFreeAmount: null,
      excessAmount: null,
    });
  });
});
