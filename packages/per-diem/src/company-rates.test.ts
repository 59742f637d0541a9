// Issue 34 §2 (docs/decisions/0188): a foreign row whose statutory rate is unknown names the figures the
// research only reports, and is priced with the company's own rate only when the company has one. Expected
// figures from the research (packages/regulations/research): SI foreign bands "8–14 h 75 %", meals
// "8–14 h: −15 % / −40 % / −40 %", "Rates from 2021: HR, CZ, PL, SK 40 € each; 2026 amounts UNVERIFIED"
// (REGULATIONS.md, Slovenia); SK 401/2012 row AL "EUR† 33, S1 only" (foreign/SK.md,
// Table 1), bands "≤6 h 25 %, 6–12 h 50 %, >12 h 100 %" (REGULATIONS.md, Slovakia); SK AT 45 € statutory.
import { calculatePerDiems, toApiRow } from './engine';
import type { CompanyRate, CompanyRates, Stop } from './types';

/** Home 05:00Z → abroad 07:00Z–21:00Z (14 h) → home, ending 22:00Z, on `date`. */
const dayTrip = (home: string, abroad: string, date: string): Stop[] => [
  { time: `${date}T05:00:00Z`, countryCode: home },
  { time: `${date}T07:00:00Z`, countryCode: abroad },
  { time: `${date}T21:00:00Z`, countryCode: home },
  { time: `${date}T22:00:00Z`, countryCode: home },
];

const rate = (countryCode: string, amount: string, currencyCode = 'EUR'): CompanyRate => ({
  countryCode,
  amount,
  currencyCode,
  effectiveFrom: '2026-01-01',
  confirmedBy: 'emp_anna',
  confirmedAt: '2026-02-01T09:00:00.000Z',
});
const ratesOf =
  (...list: CompanyRate[]): CompanyRates =>
  (countryCode, date) =>
    date >= '2026-01-01' ? list.find((r) => r.countryCode === countryCode) : undefined;

const abroad = (result: ReturnType<typeof calculatePerDiems>, countryCode: string) =>
  result.items.find((r) => r.countryCode === countryCode)!;

describe('company rates where nothing is known (SI abroad in 2026)', () => {
  it('without a company rate the row is unknown: no amount, nothing reported, the totals incomplete', () => {
    const result = calculatePerDiems({ market: 'SI', stops: dayTrip('SI', 'AT', '2026-03-02') });
    const row = abroad(result, 'AT');
    expect(row).toMatchObject({ status: 'unknown', amount: null, reported: [], rateBasis: null, source: null });
    expect(row.reason).toMatch(/SI foreign per-diem rate for AT on 2026-03-02/);
    expect(result.complete).toBe(false);
  });

  it('the company rate pays through the statutory band (8–14 h: 75 %), its tax-free part unknown', () => {
    const result = calculatePerDiems({
      market: 'SI',
      stops: dayTrip('SI', 'AT', '2026-03-02'),
      companyRates: ratesOf(rate('AT', '50.00')),
    });
    const row = abroad(result, 'AT');
    // 14 h abroad → >8-14h, 75 % of 50.00 € = 37.50 €.
    expect(row).toMatchObject({
      status: 'known',
      band: '>8-14h',
      amount: '37.50',
      currencyCode: 'EUR',
      amountInBaseCurrency: '37.50',
      payableAmount: '37.50',
      rateBasis: 'CompanyRate',
      taxTreatment: 'Unknown',
      reported: [],
      source: {
        act: 'Company per-diem policy from 2026-01-01',
        provision: null,
        reportedBy: 'confirmed by emp_anna on 2026-02-01T09:00:00.000Z',
      },
    });
    expect(row.warnings.join(' ')).toMatch(/tax-free part is unknown/);
    expect(result.totals).toContainEqual({ currencyCode: 'EUR', amount: '37.50' });
    expect(result.complete).toBe(true);
    expect(toApiRow(row)).toMatchObject({ rateBasis: 'CompanyRate', reported: [], amount: '37.50' });
  });

  it('meals cut the company rate as the statutory reductions say (8–14 h: lunch −40 % of the dnevnica)', () => {
    const stops = dayTrip('SI', 'AT', '2026-03-02');
    const plain = calculatePerDiems({ market: 'SI', stops, companyRates: ratesOf(rate('AT', '50.00')) });
    const row = abroad(plain, 'AT');
    const result = calculatePerDiems({
      market: 'SI',
      stops,
      companyRates: ratesOf(rate('AT', '50.00')),
      meals: [{ countryCode: 'AT', departureTime: row.departureTime, lunchesProvided: 1 }],
    });
    // 37.50 € less 40 % of it (15.00 €) = 22.50 €.
    expect(abroad(result, 'AT')).toMatchObject({ grossAmount: '37.50', amount: '22.50', rateBasis: 'CompanyRate' });
  });

  it('the statutory rate, where known, pays; a company rate for the country is not used (SI → HR 2025: 40 €)', () => {
    const companyRates: CompanyRates = () => rate('HR', '99.00');
    const row = abroad(
      calculatePerDiems({ market: 'SI', stops: dayTrip('SI', 'HR', '2025-03-03'), companyRates }),
      'HR',
    );
    // 14 h → 8–14 h: 75 % of 40 € = 30.00 €.
    expect(row).toMatchObject({ status: 'known', amount: '30.00' });
    expect(row.rateBasis).toBe('Statutory');
    expect(row.taxTreatment).toBe('TaxFreeCap');
    expect(row.source?.act).not.toMatch(/Company/);
  });

  it('the company rates are asked only of a foreign row whose statutory rate is unknown', () => {
    const asked: string[] = [];
    calculatePerDiems({
      market: 'SI',
      stops: dayTrip('SI', 'AT', '2026-03-02'),
      companyRates: (countryCode) => void asked.push(countryCode),
    });
    expect(asked).toEqual(['AT']); // the two SI rows are domestic
    asked.length = 0;
    calculatePerDiems({
      market: 'SI',
      stops: dayTrip('SI', 'HR', '2025-03-03'),
      companyRates: (countryCode) => void asked.push(countryCode),
    });
    expect(asked).toEqual([]); // HR 2025: 40 € statutory
  });
});

describe('reported figures (SK: 401/2012 rows read in one source)', () => {
  it('an unknown row names the reported figure and its source, and is not priced from it', () => {
    const result = calculatePerDiems({ market: 'SK', stops: dayTrip('SK', 'AL', '2026-03-02') });
    const row = abroad(result, 'AL');
    expect(row).toMatchObject({ status: 'unknown', amount: null, payableAmount: null, rateBasis: null });
    expect(row.reported).toEqual([
      expect.objectContaining({ amount: '33', currencyCode: 'EUR', source: expect.stringMatching(/401\/2012/) }),
    ]);
    expect(toApiRow(row).reported).toEqual(row.reported);
    expect(result.complete).toBe(false);
  });

  it('the company confirming the same figure prices it with the usual treatment (>12 h: 100 % of 33 €)', () => {
    const result = calculatePerDiems({
      market: 'SK',
      stops: dayTrip('SK', 'AL', '2026-03-02'),
      companyRates: ratesOf(rate('AL', '33.00')),
    });
    const row = abroad(result, 'AL');
    expect(row).toMatchObject({
      status: 'known',
      band: '>12h',
      amount: '33.00',
      currencyCode: 'EUR',
      rateBasis: 'CompanyConfirmedReported',
      taxTreatment: 'StatutoryMinimum',
      source: { act: 'Company per-diem policy from 2026-01-01', reportedBy: expect.stringMatching(/emp_anna/) },
    });
    expect(row.reported).toHaveLength(1);
    expect(row.warnings.join(' ')).toMatch(/confirmed the reported figure 33 EUR/);
  });

  it('another amount than the reported figure is the company’s own rate: tax treatment unknown', () => {
    const row = abroad(
      calculatePerDiems({
        market: 'SK',
        stops: dayTrip('SK', 'AL', '2026-03-02'),
        companyRates: ratesOf(rate('AL', '40.00')),
      }),
      'AL',
    );
    expect(row).toMatchObject({ amount: '40.00', rateBasis: 'CompanyRate', taxTreatment: 'Unknown' });
  });

  it('a statutory row names nothing reported (SK → AT 45 €)', () => {
    const row = abroad(calculatePerDiems({ market: 'SK', stops: dayTrip('SK', 'AT', '2026-03-02') }), 'AT');
    expect(row).toMatchObject({ amount: '45.00', rateBasis: 'Statutory', reported: [] });
  });
});

// SI → LU 2021–2025: the sources disagree, 55 € (D, S) against 40 € (Z) (foreign/SI.md): both are named.
describe('conflicting reported figures (SI → LU, 2024)', () => {
  it('the row names both and stays unknown; confirming one of them prices it as usual', () => {
    const stops = dayTrip('SI', 'LU', '2024-03-04');
    const row = abroad(calculatePerDiems({ market: 'SI', stops }), 'LU');
    expect(row.amount).toBeNull();
    expect(row.reported.map((r) => `${r.amount} ${r.currencyCode}`).sort()).toEqual(['40 EUR', '55 EUR']);
    const at55: CompanyRates = (countryCode) => (countryCode === 'LU' ? rate('LU', '55.00') : undefined);
    // 14 h → 8–14 h: 75 % of 55 € = 41.25 €.
    expect(abroad(calculatePerDiems({ market: 'SI', stops, companyRates: at55 }), 'LU')).toMatchObject({
      amount: '41.25',
      rateBasis: 'CompanyConfirmedReported',
      taxTreatment: 'TaxFreeCap',
    });
  });
});
