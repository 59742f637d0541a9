// Per-diem rows priced under a company per-diem policy (issue 22 §2), per market, through the engine: the
// statutory amount (from REGULATIONS.md) is the tax-free part, what the policy pays above it the taxable
// excess. Every expected figure is worked out by hand in the test's comment.
import type { CallerContext } from '@travel/platform';
import { testCaller } from '@travel/testkit/src/doubles';
import { NO_POLICY, type PerDiemPolicy } from '@travel/contracts';
import type { PerDiem } from '../domain/per-diem-row';
import { PerDiemPricer } from './per-diem-pricer';
import type { CurrencyConverter } from './ports';

const caller = (market: CallerContext['market'], baseCurrency: string) => testCaller({ market, baseCurrency });
const employees = {
  perDiemProfileOf: async () => ({ residency: 'Resident' as const, mobileRoadTransportWorker: false }),
};
const noFx: CurrencyConverter = {
  convert: async () => {
    throw new Error('domestic rows are in the base currency: nothing to convert');
  },
};
const entry = { employeeId: 'e1', advancePaymentDate: '2026-03-02' };

/** A policy of one version from 2026-01-01 paying `bands` at home. */
const policyOf = (bands: Record<string, string>, more: PerDiemPolicy['versions'] = []): PerDiemPolicy => ({
  sector: 'Private',
  versions: [
    {
      effectiveFrom: '2026-01-01',
      domesticBands: Object.entries(bands).map(([band, amount]) => ({ band, amount })),
      foreignBaseRatePercent: null,
    },
    ...more,
  ],
});
const pricer = (policy: PerDiemPolicy) => new PerDiemPricer(noFx, employees, { policyOf: async () => policy });

/** A one-day domestic trip on 2026-03-02 from `from` to `to` (UTC; the markets are on UTC+1 in March). */
async function dayTrip(
  market: CallerContext['market'],
  currency: string,
  policy: PerDiemPolicy,
  from: string,
  to: string,
  meals?: { lunchesProvided: number },
): Promise<PerDiem> {
  const stops = [
    { time: `2026-03-02T${from}:00Z`, countryCode: market },
    { time: `2026-03-02T${to}:00Z`, countryCode: market },
  ];
  const priced = await pricer(policy).fromItinerary(caller(market, currency), entry, {
    stops,
    meals: meals ? [{ countryCode: market, departureTime: stops[0].time, ...meals }] : undefined,
  });
  expect(priced.errors).toEqual({});
  expect(priced.rows).toHaveLength(1);
  return priced.rows[0];
}

const split = (r: PerDiem) => ({
  band: r.band,
  amount: r.amount,
  payableAmount: r.payableAmount,
  taxFreeAmount: r.taxFreeAmount,
  excessAmount: r.excessAmount,
  amountInBaseCurrency: r.amountInBaseCurrency,
  policyEffectiveFrom: r.policyEffectiveFrom,
});

describe('per-diem rows under a company policy above the statutory amount', () => {
  it('CZ: 14 h pays the policy 300 Kč: 236 Kč tax-free (2026 minimum), 64 Kč taxable', async () => {
    const row = await dayTrip('CZ', 'CZK', policyOf({ '>12-18h': '300.00' }), '05:00', '19:00');
    expect(split(row)).toEqual({
      band: '>12-18h',
      amount: '236.00',
      payableAmount: '300.00',
      taxFreeAmount: '236.00',
      excessAmount: '64.00',
      amountInBaseCurrency: '300.00',
      policyEffectiveFrom: '2026-01-01',
    });
  });

  it('CZ: a free lunch cuts the policy amount as the law cuts the statutory one (35 %)', async () => {
    // Statutory 236 − 35 % × 236 = 153.40; the policy 300 × 153.40 / 236 = 195.00; excess 41.60.
    const row = await dayTrip('CZ', 'CZK', policyOf({ '>12-18h': '300.00' }), '05:00', '19:00', { lunchesProvided: 1 });
    expect(split(row)).toMatchObject({
      amount: '153.40',
      payableAmount: '195.00',
      taxFreeAmount: '153.40',
      excessAmount: '41.60',
    });
  });

  it('SK: 16 h pays 16.00 € instead of 13.80 €: 13.80 tax-free, 2.20 taxable', async () => {
    const row = await dayTrip('SK', 'EUR', policyOf({ '>12-18h': '16.00' }), '05:00', '21:00');
    expect(split(row)).toEqual({
      band: '>12-18h',
      amount: '13.80',
      payableAmount: '16.00',
      taxFreeAmount: '13.80',
      excessAmount: '2.20',
      amountInBaseCurrency: '16.00',
      policyEffectiveFrom: '2026-01-01',
    });
  });

  it('PL: 10 h pays 30 zł instead of half the dieta (22.50 zł): 7.50 zł taxable', async () => {
    const row = await dayTrip('PL', 'PLN', policyOf({ '8-12h': '30.00' }), '05:00', '15:00');
    expect(split(row)).toMatchObject({
      band: '8-12h',
      amount: '22.50',
      payableAmount: '30.00',
      taxFreeAmount: '22.50',
      excessAmount: '7.50',
    });
  });

  it('PL: full days of a longer trip are priced under the band FullDay (60 zł: 45 tax-free, 15 taxable)', async () => {
    const priced = await pricer(policyOf({ FullDay: '60.00' })).fromItinerary(caller('PL', 'PLN'), entry, {
      stops: [
        { time: '2026-03-02T05:00:00Z', countryCode: 'PL' },
        { time: '2026-03-04T07:00:00Z', countryCode: 'PL' },
      ],
    });
    expect(priced.errors).toEqual({});
    const fullDays = priced.rows.filter((r) => r.band === 'FullDay');
    expect(fullDays.length).toBeGreaterThan(0);
    for (const r of fullDays)
      expect(split(r)).toMatchObject({
        amount: '45.00',
        payableAmount: '60.00',
        taxFreeAmount: '45.00',
        excessAmount: '15.00',
      });
  });

  it('HR: 14 h pays 40 € instead of the 30 € tax-free cap: 30 tax-free, 10 taxable', async () => {
    const row = await dayTrip('HR', 'EUR', policyOf({ '>12h': '40.00' }), '05:00', '19:00');
    expect(split(row)).toMatchObject({
      band: '>12h',
      amount: '30.00',
      payableAmount: '40.00',
      taxFreeAmount: '30.00',
      excessAmount: '10.00',
    });
  });

  it('HR: a policy below the cap pays less, all of it tax-free (the cap is no floor)', async () => {
    const row = await dayTrip('HR', 'EUR', policyOf({ '>12h': '25.00' }), '05:00', '19:00');
    expect(split(row)).toMatchObject({
      amount: '30.00',
      payableAmount: '25.00',
      taxFreeAmount: '25.00',
      excessAmount: '0.00',
    });
  });

  it('SI: 14 h pays 30 € instead of 27.81 € (UL RS 162/2022): 27.81 tax-free, 2.19 taxable', async () => {
    const row = await dayTrip('SI', 'EUR', policyOf({ '>12-24h': '30.00' }), '05:00', '19:00');
    expect(split(row)).toMatchObject({
      band: '>12-24h',
      amount: '27.81',
      payableAmount: '30.00',
      taxFreeAmount: '27.81',
      excessAmount: '2.19',
    });
  });
});

describe('per-diem rows: versions, overrides, no policy', () => {
  it('a row pays the version in force on its date', async () => {
    const policy = policyOf({ '>12-18h': '300.00' }, [
      {
        effectiveFrom: '2026-03-03',
        domesticBands: [{ band: '>12-18h', amount: '350.00' }],
        foreignBaseRatePercent: null,
      },
    ]);
    const priced = await pricer(policy).fromItinerary(caller('CZ', 'CZK'), entry, {
      stops: [
        { time: '2026-03-02T05:00:00Z', countryCode: 'CZ' },
        { time: '2026-03-03T19:00:00Z', countryCode: 'CZ' },
      ],
    });
    expect(priced.errors).toEqual({});
    expect(priced.rows.map((r) => [r.date, r.band, r.payableAmount, r.policyEffectiveFrom])).toEqual([
      ['2026-03-02', '>12-18h', '300.00', '2026-01-01'], // 06:00-24:00 Prague: 18 h, the first version
      ['2026-03-03', '>18h', '370.00', null], // 00:00-20:00: a band the second version does not name: statutory
    ]);
    const short = await pricer(policy).fromItinerary(caller('CZ', 'CZK'), entry, {
      stops: [
        { time: '2026-03-03T05:00:00Z', countryCode: 'CZ' },
        { time: '2026-03-03T19:00:00Z', countryCode: 'CZ' },
      ],
    });
    expect(short.rows.map((r) => [r.date, r.payableAmount, r.policyEffectiveFrom])).toEqual([
      ['2026-03-03', '350.00', '2026-03-03'],
    ]);
  });

  it('an override wins over the policy; both use one model: tax-free up to the statutory amount', async () => {
    const priced = await pricer(policyOf({ '>12-18h': '300.00' })).fromRows(caller('CZ', 'CZK'), entry, [
      {
        countryCode: 'CZ',
        departureTime: '2026-03-02T05:00:00Z',
        arrivalTime: '2026-03-02T19:00:00Z',
        overrideAmount: 500,
        overrideReason: 'Board decision',
      },
    ]);
    expect(priced.errors).toEqual({});
    expect(split(priced.rows[0])).toMatchObject({
      amount: '236.00',
      payableAmount: '500.00',
      taxFreeAmount: '236.00',
      excessAmount: '264.00',
      policyEffectiveFrom: null,
    });
  });

  it('without a policy the statutory amount is paid, all tax-free, no excess', async () => {
    const row = await dayTrip('CZ', 'CZK', NO_POLICY, '05:00', '19:00');
    expect(split(row)).toMatchObject({
      amount: '236.00',
      payableAmount: '236.00',
      taxFreeAmount: '236.00',
      excessAmount: null,
      policyEffectiveFrom: null,
    });
  });

  it('a policy change does not re-price stored rows: only rows written again use the new version', async () => {
    const c = caller('CZ', 'CZK');
    const first = await pricer(policyOf({ '>12-18h': '300.00' })).fromItinerary(c, entry, {
      stops: [
        { time: '2026-03-02T05:00:00Z', countryCode: 'CZ' },
        { time: '2026-03-02T19:00:00Z', countryCode: 'CZ' },
      ],
    });
    const current = { ...entry, perDiems: first.rows } as unknown as Parameters<PerDiemPricer['forUpdate']>[1];
    const changed = pricer(policyOf({ '>12-18h': '400.00' }));
    // A PUT without perDiems, or with the same rows: kept as stored (300 Kč).
    const kept = await changed.forUpdate(c, current, entry, undefined);
    expect(kept).toMatchObject({ changed: false, errors: {} });
    expect(kept.rows[0].payableAmount).toBe('300.00');
    // Rows written again (another meal) are priced now, under the new version: 400 × 153.40 / 236 = 260.00.
    const rewritten = await changed.forUpdate(c, current, entry, [
      {
        countryCode: 'CZ',
        departureTime: '2026-03-02T05:00:00Z',
        arrivalTime: '2026-03-02T19:00:00Z',
        lunchesProvided: 1,
      },
    ]);
    expect(rewritten.changed).toBe(true);
    expect(split(rewritten.rows[0])).toMatchObject({
      payableAmount: '260.00',
      taxFreeAmount: '153.40',
      excessAmount: '106.60',
    });
  });
});
